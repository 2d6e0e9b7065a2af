import { beforeAll, describe, expect, it } from "vitest";
import { promptText } from "../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../test/support/use-scripted-llm.js";
import type { LlmClient } from "../llm/index.js";
import { JudgesConfigSchema } from "./config.js";
import { JudgeInputError } from "./errors.js";
import { reference } from "./reference.js";
import { REFERENCE_PROMPTS } from "./reference.prompts.js";

const server = useScriptedLlm();
let client: LlmClient;
beforeAll(() => {
  client = scriptedClient(server, "judge");
});

const input = {
  question: "Which year did the project start?",
  ground_truth: "According to the document, the project started in 2021.",
  answer: "It started in 2021.",
};

describe("reference", () => {
  it("puts the question, the ground truth and the answer in the 5-point prompt", async () => {
    server.on({ reply: { json: { score: 4, reasoning: "Correct but terse." } } });
    const result = await reference({ ...input, client });
    const prompt = promptText(server.requests[0] as never);
    expect(prompt).toContain(input.question);
    expect(prompt).toContain(input.ground_truth);
    expect(prompt).toContain(input.answer);
    expect(prompt).toContain("5 (perfect)");
    expect(prompt).toContain("1 (wrong or no answer)");
    expect(result).toMatchObject({
      name: "reference",
      outcome: "ok",
      verdict: { score: 4, reasoning: "Correct but terse." },
      raw_score: 4,
      score: 0.75,
      passed: true,
    });
  });

  it("is a judge_error naming the depth when the reply nests deeper than 64 levels", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    server.on({ reply: { content: `{"score":4,"reasoning":"fine","notes":${deep}}` } });
    const result = await reference({ ...input, client });
    if (result.outcome !== "judge_error")
      throw new Error(`expected a judge_error: ${result.outcome}`);
    expect(result).toMatchObject({ score: null, error: { cause: "reply" } });
    expect(result.error.message).toMatch(/notes\.0\.0.*nested deeper than 64 levels/);
    // Asked once, re-asked once with the reason: two calls, no more.
    expect(server.requests).toHaveLength(2);
  });

  it("passes at score >= 4 by default, or the configured minimum", async () => {
    server.on({ reply: { json: { score: 3, reasoning: "Partly wrong." } } });
    expect((await reference({ ...input, client })).passed).toBe(false);
    const lenient = JudgesConfigSchema.parse({ reference: { pass_min_score: 3 } });
    expect((await reference({ ...input, client, config: lenient })).passed).toBe(true);
  });

  it("uses seed 003's Chinese prompt for a Chinese question", async () => {
    server.on({ reply: { chatty: { score: 5, reasoning: "完全正确。" } } });
    const result = await reference({
      question: "项目启动于哪一年？",
      ground_truth: "根据文档，该项目于2021年正式启动。",
      answer: "2021 年。",
      client,
    });
    expect(result.verdict?.score).toBe(5);
    expect(result.language).toBe("zh");
    expect(promptText(server.requests[0] as never)).toContain("5分 (完美回答)");
  });

  it("rejects a non-integer score, re-asks, then gives no score, with the error and raw text", async () => {
    server.on({ reply: { json: { score: 3.5, reasoning: "Between 3 and 4." } } });
    const result = await reference({ ...input, client });
    expect(result).toMatchObject({
      outcome: "judge_error",
      raw_score: null,
      score: null,
      passed: null,
      verdict: null,
      error: { cause: "reply", message: expect.stringMatching(/score/) },
    });
    expect(result.outcome === "judge_error" && result.error.raw).toHaveLength(2);
  });

  it("lists several references and asks for the score against the best-matching one", async () => {
    server.on({ reply: { json: { score: 5, reasoning: "Matches the second reference." } } });
    const result = await reference({
      question: "Which team won Super Bowl 50?",
      ground_truths: ["Denver Broncos", "The Broncos"],
      ground_truth: "Broncos",
      answer: "The Broncos won it.",
      client,
    });
    const prompt = promptText(server.requests[0] as never);
    expect(prompt).toContain(REFERENCE_PROMPTS.en.several);
    expect(prompt).toContain("1. Broncos\n2. Denver Broncos\n3. The Broncos");
    expect(result.passed).toBe(true);
  });

  it("keeps the seed's prompt for a single reference, given either way", async () => {
    server.on({ reply: { json: { score: 4, reasoning: "Fine." } } });
    await reference({ ...input, client });
    await reference({
      question: input.question,
      answer: input.answer,
      ground_truths: [input.ground_truth, "  "],
      client,
    });
    const [first, second] = server.requests.map((request) => promptText(request as never));
    expect(first).toBe(second);
    expect(first).not.toContain(REFERENCE_PROMPTS.en.several);
  });

  it("rejects an input without a non-blank reference, naming ground_truth", async () => {
    const call = reference({ question: "Q?", answer: "A", ground_truths: [" "], client });
    await expect(call).rejects.toSatisfy(
      (error) => JudgeInputError.isInstance(error) && error.field === "ground_truth",
    );
    expect(server.requests).toHaveLength(0);
  });
});
