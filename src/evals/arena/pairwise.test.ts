import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  promptText,
  type ScriptedLlm,
  startScriptedLlm,
} from "../../../test/support/scripted-llm.js";
import {
  createLlmClient,
  type LlmClient,
  ProviderLimiters,
  parseLlmConfig,
  resolveModelConfig,
} from "../../llm/index.js";
import { LOSS, WIN } from "./outcomes.js";
import { judgePair, judgeSwapped } from "./pairwise.js";

let server: ScriptedLlm;
let client: LlmClient;

beforeAll(async () => {
  server = await startScriptedLlm();
  client = createLlmClient(
    resolveModelConfig(parseLlmConfig({ base_url: server.baseUrl }), "judge"),
    {
      limiters: new ProviderLimiters(),
    },
  );
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const input = {
  question: "When did Line 1 open?",
  references: ["18 September 2009", "September 18, 2009"],
  contexts: [{ node_id: "m1", content: "Line 1 opened on 18 September 2009." }],
};

describe("judgePair", () => {
  it("shows the question, every reference, the contexts and both answers, and reads the verdict", async () => {
    server.on({ reply: { json: { reasoning: "B has the right date.", verdict: " b " } } });
    const judged = await judgePair(
      { ...input, answerA: "In 2010.", answerB: "In 2009." },
      { client, noCache: true },
    );
    expect(judged).toMatchObject({ ok: true, verdict: "B", reasoning: "B has the right date." });
    const prompt = promptText(server.requests[0] as never);
    for (const text of [
      "When did Line 1 open?",
      "18 September 2009",
      "September 18, 2009",
      "[1] (id: m1)",
    ]) {
      expect(prompt).toContain(text);
    }
    expect(prompt.indexOf("Answer A\nIn 2010.")).toBeLessThan(prompt.indexOf("Answer B\nIn 2009."));
  });

  it("asks in Chinese for a Chinese question", async () => {
    server.on({ reply: { json: { reasoning: "一样", verdict: "TIE" } } });
    const judged = await judgePair(
      {
        question: "澜汀大学成立于哪一年？",
        references: [],
        contexts: [],
        answerA: "1952年",
        answerB: "1952年。",
      },
      { client, noCache: true },
    );
    expect(judged).toMatchObject({ ok: true, verdict: "tie" });
    expect(promptText(server.requests[0] as never)).toContain("回答 A");
  });

  it("returns a judge error, not a verdict, when the reply stays unusable", async () => {
    server.on({ reply: { content: "A is better, obviously" } });
    const judged = await judgePair(
      { ...input, answerA: "x", answerB: "y" },
      { client, noCache: true },
    );
    expect(judged.ok).toBe(false);
    expect(server.requests).toHaveLength(2); // the answer and one re-ask
  });
});

describe("judgeSwapped", () => {
  it("counts a win when a judge prefers the same answer in both orders", async () => {
    // A judge that reads the answers: it prefers whichever position holds "In 2009.".
    server.on({
      reply: (request) => {
        const prompt = promptText(request);
        const a = prompt.slice(prompt.indexOf("Answer A"), prompt.indexOf("Answer B"));
        return {
          json: { reasoning: "the right date", verdict: a.includes("In 2009.") ? "A" : "B" },
        };
      },
    });
    const right = await judgeSwapped(
      { ...input, answerX: "In 2009.", answerY: "In 2010." },
      { client, noCache: true },
    );
    expect(right).toMatchObject({ ok: true, outcome: WIN, flipped: false });
    const wrong = await judgeSwapped(
      { ...input, answerX: "In 2010.", answerY: "In 2009." },
      { client, noCache: true },
    );
    expect(wrong).toMatchObject({ ok: true, outcome: LOSS, flipped: false });
  });
});
