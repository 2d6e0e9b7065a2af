import { beforeAll, describe, expect, it } from "vitest";
import { promptText } from "../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../test/support/use-scripted-llm.js";
import type { LlmClient } from "../llm/index.js";
import { JudgesConfigSchema } from "./config.js";
import { JudgeInputError } from "./errors.js";
import { review } from "./review.js";

const server = useScriptedLlm();
let client: LlmClient;
beforeAll(() => {
  client = scriptedClient(server, "judge", { roles: { judge: { model: "judge-model" } } });
});

const pass = { passed: true, problems: [] };
const question = "When did Acme launch its first product?";
const answer = "Acme launched its first product in 2019.";

function lastPrompt(): string {
  const request = server.requests.at(-1);
  if (!request) throw new Error("no request recorded");
  return promptText(request);
}

describe("review prompt", () => {
  it("carries the top-k items, each cut to 500 characters with an ellipsis marker", async () => {
    server.on({ reply: { json: { reasonableness: pass, evidence: pass } } });
    const long = `${"a".repeat(499)}BC${"z".repeat(200)}`;
    const contexts = [
      { node_id: "n1", source: "report.pdf", content: long },
      "second item",
      "third item",
      "fourth item beyond top-k",
    ];
    await review({ question, answer, contexts, top_k: 3, client });
    const prompt = lastPrompt();
    expect(prompt).toContain(`[1] (source: report.pdf, id: n1)\n${"a".repeat(499)}B…`);
    expect(prompt).not.toContain("BC");
    expect(prompt).toContain("[2]\nsecond item");
    expect(prompt).toContain("[3]\nthird item");
    expect(prompt).not.toContain("fourth item");
    expect(prompt).toContain("top 3 items, each cut to 500 characters");
    expect(prompt).toContain(question);
    expect(prompt).toContain(answer);
  });

  it("uses config.review.top_k when the input has none", async () => {
    server.on({ reply: { json: { reasonableness: pass, evidence: pass } } });
    const contexts = Array.from({ length: 8 }, (_, i) => `item number ${i + 1}`);
    await review({ question, answer, contexts, client });
    expect(lastPrompt()).toContain("item number 5");
    expect(lastPrompt()).not.toContain("item number 6");
    const config = JudgesConfigSchema.parse({ review: { top_k: 2, max_item_chars: 4 } });
    await review({ question, answer, contexts, client, config });
    expect(lastPrompt()).toContain("[2]\nitem…");
    expect(lastPrompt()).not.toContain("[3]");
  });

  it("asks for both dimensions and actionable suggestions", async () => {
    server.on({ reply: { json: { reasonableness: pass, evidence: pass } } });
    await review({ question, answer, contexts: ["x"], client });
    const prompt = lastPrompt();
    expect(prompt).toMatch(/reasonableness: the answer stays on the question/);
    expect(prompt).toMatch(/no contradictions and no hallucinations/);
    expect(prompt).toMatch(/every key conclusion cites its source/);
    expect(prompt).toMatch(/explicitly stated as insufficient information/);
    expect(prompt).toContain("has no source citation");
    expect(prompt).toContain('Never write vague problems such as "poor quality"');
  });

  it("switches to the Chinese prompt for a Chinese question, unless config says otherwise", async () => {
    server.on({ reply: { json: { reasonableness: pass, evidence: pass } } });
    const zh = await review({
      question: "Acme 哪一年发布第一款产品？",
      answer: "2019 年。",
      contexts: ["x"],
      client,
    });
    expect(zh.language).toBe("zh");
    expect(lastPrompt()).toContain("合理性");
    expect(lastPrompt()).toContain("证据标注");
    expect(lastPrompt()).toContain("缺少来源标注");
    const en = await review({
      question: "Acme 哪一年发布第一款产品？",
      answer: "2019 年。",
      client,
      config: JudgesConfigSchema.parse({ language: "en" }),
    });
    expect(en.language).toBe("en");
    expect(lastPrompt()).toContain("## Check two dimensions");
  });
});

describe("review verdict", () => {
  it("returns exactly {passed, suggestions} and suggestions [] when both dimensions pass", async () => {
    server.on({
      reply: { json: { reasonableness: pass, evidence: { passed: true, problems: ["nit"] } } },
    });
    const result = await review({ question, answer, contexts: ["Acme launched in 2019."], client });
    expect(result.verdict).toEqual({ passed: true, suggestions: [] });
    expect(Object.keys(result.verdict ?? {}).sort()).toEqual(["passed", "suggestions"]);
    expect(result).toMatchObject({
      name: "review",
      outcome: "ok",
      score: 1,
      raw_score: 1,
      passed: true,
      model: "judge-model",
      language: "en",
    });
    expect(result.calls).toHaveLength(1);
  });

  it("lists the failing dimensions' problems, reasonableness first", async () => {
    const evidenceProblem = "Key conclusion '2019 launch' has no source citation; cite [1].";
    const logicProblem = "The answer contradicts itself about the year; keep one date.";
    server.on({
      reply: {
        json: {
          reasonableness: { passed: false, problems: [logicProblem] },
          evidence: { passed: false, problems: [evidenceProblem] },
        },
      },
    });
    const result = await review({ question, answer, contexts: ["Acme launched in 2019."], client });
    expect(result.verdict).toEqual({ passed: false, suggestions: [logicProblem, evidenceProblem] });
    expect(result).toMatchObject({ outcome: "ok", passed: false, score: 0 });
  });

  it("does not judge evidence without retrieved context", async () => {
    server.on({
      reply: {
        json: { reasonableness: pass, evidence: { passed: false, problems: ["no citations"] } },
      },
    });
    const result = await review({ question, answer, client });
    expect(result.verdict).toEqual({ passed: true, suggestions: [] });
    expect(lastPrompt()).toContain("(no retrieved context was provided)");
    expect(lastPrompt()).toContain("set evidence.passed to true");
  });

  it("re-asks when a failing dimension gives no problem", async () => {
    server.on({
      times: 1,
      reply: { json: { reasonableness: { passed: false, problems: [] }, evidence: pass } },
    });
    server.on({
      reply: {
        json: {
          reasonableness: { passed: false, problems: ["Off topic: answer the launch year."] },
          evidence: pass,
        },
      },
    });
    const result = await review({ question, answer, contexts: ["x"], client });
    expect(result.calls).toHaveLength(2);
    expect(result.verdict?.suggestions).toEqual(["Off topic: answer the launch year."]);
    expect(lastPrompt()).toContain("must list at least one problem");
  });

  it("is a judge_error without a score, keeping the raw text, when the reply stays unusable", async () => {
    server.on({ reply: { content: "The answer looks fine to me!" } });
    const result = await review({ question, answer, contexts: ["x"], client });
    expect(result).toMatchObject({
      outcome: "judge_error",
      passed: null,
      score: null,
      verdict: null,
      error: { raw: ["The answer looks fine to me!", "The answer looks fine to me!"] },
    });
    expect(result.calls).toHaveLength(2);
  });

  it("rejects bad input with the field at fault", async () => {
    const error = await review({ question: "  ", answer, client }).catch((e: unknown) => e);
    expect(JudgeInputError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ judge: "review", field: "question" });
    expect(server.requests).toHaveLength(0);
  });
});
