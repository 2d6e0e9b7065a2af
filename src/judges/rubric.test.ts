import { beforeAll, describe, expect, it } from "vitest";
import { promptText } from "../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../test/support/use-scripted-llm.js";
import { type LlmClient, ProviderLimiters } from "../llm/index.js";
import { JudgesConfigSchema } from "./config.js";
import { JudgeInputError } from "./errors.js";
import { rubric, weightedScore } from "./rubric.js";

const server = useScriptedLlm();
let client: LlmClient;
let schemaClient: LlmClient;
beforeAll(() => {
  const limiters = new ProviderLimiters();
  client = scriptedClient(server, "judge", {}, { limiters });
  schemaClient = scriptedClient(
    server,
    "judge",
    { structured_output: "json_schema" },
    { limiters },
  );
});

const question = "What was Acme's revenue in 2023?";
const answer = "The sources do not give 2023 revenue; 2022 revenue was 4.2 million USD [1].";
const reply = (accuracy: number, completeness: number, clarity: number) => ({
  analysis: "No factual errors found.",
  accuracy,
  completeness,
  clarity,
  reason: "Honest and precise.",
  suggestion: "Mention where 2023 figures will appear.",
});

function lastPrompt(): string {
  const request = server.requests.at(-1);
  if (!request) throw new Error("no request recorded");
  return promptText(request);
}

describe("weightedScore", () => {
  it("weights accuracy, completeness and clarity 0.5 / 0.3 / 0.2 by default", () => {
    const { weights } = JudgesConfigSchema.parse({}).rubric;
    expect(weightedScore({ accuracy: 8, completeness: 6, clarity: 9 }, weights)).toBe(7.6);
    expect(weightedScore({ accuracy: 7, completeness: 8, clarity: 9 }, weights)).toBe(7.7);
    expect(weightedScore({ accuracy: 10, completeness: 10, clarity: 10 }, weights)).toBe(10);
    expect(weightedScore({ accuracy: 1, completeness: 1, clarity: 1 }, weights)).toBe(1);
  });
  it("normalizes configured weights to sum to 1", () => {
    const weights = { accuracy: 1, completeness: 1, clarity: 2 };
    expect(weightedScore({ accuracy: 8, completeness: 6, clarity: 9 }, weights)).toBe(8);
  });
  it("refuses all-zero weights in config", () => {
    expect(() =>
      JudgesConfigSchema.parse({
        rubric: { weights: { accuracy: 0, completeness: 0, clarity: 0 } },
      }),
    ).toThrow(/weights must not all be 0/);
  });
});

describe("rubric result", () => {
  it("returns FineGrainedEvaluationResult fields with a computed weighted_score", async () => {
    server.on({ reply: { json: { ...reply(8, 6, 9), weighted_score: 1 } } });
    const result = await rubric({
      question,
      answer,
      documents: ["[1] 2022 revenue: 4.2M USD"],
      client,
    });
    expect(result.verdict).toEqual({
      metrics: { accuracy: 8, completeness: 6, clarity: 9, weighted_score: 7.6 },
      analysis: "No factual errors found.",
      reason: "Honest and precise.",
      suggestion: "Mention where 2023 figures will appear.",
      is_passing: true,
      mode: "documents",
    });
    expect(result).toMatchObject({ name: "rubric", outcome: "ok", raw_score: 7.6, passed: true });
    expect(result.score).toBeCloseTo((7.6 - 1) / 9, 4);
  });

  it("passes on accuracy >= 7 by default, and on the configured threshold", async () => {
    server.on({ times: 1, reply: { json: reply(7, 1, 1) } });
    server.on({ times: 1, reply: { json: reply(6.9, 10, 10) } });
    server.on({ reply: { json: reply(7, 10, 10) } });
    expect((await rubric({ question, answer, client })).verdict?.is_passing).toBe(true);
    const below = await rubric({ question, answer, client, noCache: true, seed: 1 });
    expect(below.verdict?.is_passing).toBe(false);
    expect(below.passed).toBe(false);
    const strict = JudgesConfigSchema.parse({ rubric: { pass_min_accuracy: 8 } });
    expect((await rubric({ question, answer, client, config: strict, seed: 2 })).passed).toBe(
      false,
    );
  });

  it("gives no score on judge_error: no numbers, no metrics, the error beside it", async () => {
    server.on({ reply: { content: '{"analysis": "cut off' } });
    const result = await rubric({ question, answer, client });
    expect(result).toEqual({
      name: "rubric",
      language: "en",
      model: client.model,
      calls: expect.any(Array),
      outcome: "judge_error",
      score: null,
      raw_score: null,
      passed: null,
      verdict: null,
      error: {
        message: expect.stringMatching(/invalid JSON/),
        cause: "reply",
        retryable: true,
        raw: ['{"analysis": "cut off', '{"analysis": "cut off'],
      },
    });
  });

  it("gives no score when the call fails, naming the LLM error and its retryable", async () => {
    server.on({ reply: { status: 401, message: "bad key" } });
    const result = await rubric({ question, answer, client });
    expect(result).toMatchObject({
      outcome: "judge_error",
      score: null,
      raw_score: null,
      verdict: null,
      error: {
        cause: "LlmHttpError",
        retryable: false,
        message: expect.stringMatching(/HTTP 401/),
      },
    });
    expect(server.requests).toHaveLength(1);
  });

  it("rejects scores outside 1-10 and re-asks", async () => {
    server.on({ times: 1, reply: { json: reply(11, 5, 5) } });
    server.on({ reply: { json: reply(9, 5, 5) } });
    const result = await rubric({ question, answer, client });
    expect(result.calls).toHaveLength(2);
    expect(result.verdict?.metrics.accuracy).toBe(9);
  });
});

describe("rubric prompt", () => {
  it("carries the rubric, the weights and the calibration examples", async () => {
    server.on({ reply: { json: reply(9, 7, 9) } });
    await rubric({ question, answer, documents: ["doc"], client });
    const prompt = lastPrompt();
    expect(prompt).toContain("accuracy (weight 50%)");
    expect(prompt).toContain("completeness (weight 30%)");
    expect(prompt).toContain("clarity (weight 20%)");
    expect(prompt).toContain("First write the error analysis");
    expect(prompt).toContain("a fabricated answer (accuracy 2)");
    expect(prompt).toContain('"accuracy":2');
    expect(prompt).toContain("an honest answer where the sources do not say (accuracy 9)");
    expect(prompt).toContain('"accuracy":9');
    expect(prompt).toContain("The sources do not give Acme's 2023 revenue");
  });

  it("caps the context to the top max_chunks documents", async () => {
    server.on({ reply: { json: reply(9, 7, 9) } });
    const documents = Array.from({ length: 12 }, (_, i) => `chunk-${i + 1}-text`);
    await rubric({ question, answer, documents, client });
    expect(lastPrompt()).toContain("chunk-5-text");
    expect(lastPrompt()).not.toContain("chunk-6-text");
    const ten = JudgesConfigSchema.parse({ rubric: { max_chunks: 10 } });
    await rubric({ question, answer, documents, client, config: ten });
    expect(lastPrompt()).toContain("chunk-10-text");
    expect(lastPrompt()).not.toContain("chunk-11-text");
    expect(() => JudgesConfigSchema.parse({ rubric: { max_chunks: 11 } })).toThrow();
  });

  it("pure mode: no documents, judged on established knowledge", async () => {
    server.on({ reply: { json: reply(5, 5, 5) } });
    const result = await rubric({ question, answer, client });
    expect(result.verdict?.mode).toBe("pure");
    expect(lastPrompt()).toContain("None (pure LLM mode");
    expect(lastPrompt()).toContain("well-established knowledge only");
  });

  it("comparison mode: borrows another answer's documents as ground truth", async () => {
    server.on({ reply: { json: reply(5, 5, 5) } });
    const result = await rubric({
      question,
      answer,
      documents: ["own-doc"],
      borrowed_documents: ["borrowed-doc: revenue 2023 was 5.1M USD"],
      client,
    });
    expect(result.verdict?.mode).toBe("comparison");
    const prompt = lastPrompt();
    expect(prompt).toContain("Ground-truth documents (retrieved by another system");
    expect(prompt).toContain("borrowed-doc: revenue 2023 was 5.1M USD");
    expect(prompt).not.toContain("own-doc");
    const error = await rubric({ question, answer, mode: "comparison", client }).catch(
      (e: unknown) => e,
    );
    expect(JudgeInputError.isInstance(error) && error.field).toBe("borrowed_documents");
  });

  it("uses the Chinese prompt for a Chinese question", async () => {
    server.on({ reply: { json: reply(9, 7, 9) } });
    const result = await rubric({
      question: "Acme 公司 2023 年的营收是多少？",
      answer: "资料中没有。",
      client,
    });
    expect(result.language).toBe("zh");
    expect(lastPrompt()).toContain("accuracy 精确度（权重 50%）");
    expect(lastPrompt()).toContain("编造的回答（accuracy 2 分）");
    expect(lastPrompt()).toContain("纯 LLM 模式");
  });

  it("json_schema mode puts analysis first so the model reasons before scoring", async () => {
    server.on({ reply: { json: reply(9, 7, 9) } });
    await rubric({ question, answer, client: schemaClient });
    const schema = server.requests[0]?.body.response_format?.json_schema?.schema as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(schema.properties)[0]).toBe("analysis");
  });
});
