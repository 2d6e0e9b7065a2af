import { beforeAll, describe, expect, it } from "vitest";
import { scriptedClient, useScriptedLlm } from "../../test/support/use-scripted-llm.js";
import type { LlmClient } from "../llm/index.js";
import { reference } from "./reference.js";
import { agreementOf, repeatJudge } from "./repeat.js";

const server = useScriptedLlm();
let client: LlmClient;
beforeAll(() => {
  client = scriptedClient(server, "judge");
});

const input = { question: "Which year?", ground_truth: "2021.", answer: "2021." };

describe("repeatJudge", () => {
  it("runs N trials with consecutive seeds and reports pass^N and the score spread", async () => {
    // the scripted judge disagrees with itself depending on the seed
    const scores: Record<number, number> = { 42: 5, 43: 3, 44: 4 };
    server.on({
      reply: (request) => ({
        json: { score: scores[request.body.seed ?? 0] ?? 1, reasoning: "r" },
      }),
    });
    const { trials, agreement } = await repeatJudge(reference, { ...input, client }, 3);
    expect(server.requests.map((r) => r.body.seed).sort()).toEqual([42, 43, 44]);
    expect(trials.map((t) => t.verdict?.score)).toEqual([5, 3, 4]);
    expect(agreement).toEqual({
      n: 3,
      counted: 3,
      pass_all: false,
      pass_rate: 0.6667,
      unanimous: false,
      score_mean: 0.75,
      score_stddev: 0.2041,
      raw_score_stddev: 0.8165,
    });
  });

  it("starts from the caller's seed and leaves judge_error trials out of the agreement", async () => {
    server.on({
      reply: (request) =>
        request.body.seed === 11 ? { content: "no idea" } : { json: { score: 5, reasoning: "r" } },
    });
    const { trials, agreement } = await repeatJudge(reference, { ...input, client, seed: 10 }, 3);
    expect(trials.map((t) => t.outcome)).toEqual(["ok", "judge_error", "ok"]);
    expect(agreement).toMatchObject({
      n: 3,
      counted: 2,
      pass_all: true,
      unanimous: true,
      score_stddev: 0,
    });
  });

  it("refuses repeat < 1", async () => {
    await expect(repeatJudge(reference, { ...input, client }, 0)).rejects.toThrow(RangeError);
  });
});

describe("agreementOf", () => {
  it("is null throughout when no trial counts", () => {
    expect(agreementOf([])).toMatchObject({ n: 0, counted: 0, pass_all: null, score_stddev: null });
  });
});
