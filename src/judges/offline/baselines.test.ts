import { describe, expect, it } from "vitest";
import { judgeLine, JudgeLineSchema, judgeLineSchemaFor } from "../judge-line.js";
import { DEFAULT_JUDGES_CONFIG } from "../config.js";
import {
  baselineWords,
  containedReference,
  containsReferenceJudge,
  tokenPrecision,
  tokenPrecisionJudge,
} from "./baselines.js";

describe("tokenPrecision", () => {
  it("is the share of the answer's words, repeats counted, found among the contexts' words", () => {
    // the, airport, opened, in, 2018, the found; "busy" not: 6 of 7 words.
    expect(
      tokenPrecision("The airport opened in 2018, the busy", ["The airport opened in 2018."]),
    ).toBeCloseTo(6 / 7, 12);
    expect(tokenPrecision("…", ["anything"])).toBeNull();
  });

  it("reads each CJK character as a word", () => {
    expect(baselineWords("机场2018年 Opened")).toEqual(["机", "场", "2018", "年", "opened"]);
  });
});

describe("containedReference", () => {
  it("finds a SQuAD-normalized reference inside the normalized answer", () => {
    expect(containedReference("It was David Seville, in 1958.", ["Ross", "david seville"])).toBe(1);
    expect(containedReference("Ross Bagdasarian Sr.", ["David Seville"])).toBe(-1);
    // A reference that normalizes to nothing contains nothing.
    expect(containedReference("The answer", ["the"])).toBe(-1);
  });
});

describe("the baseline judges", () => {
  it("score in the judges' result shape", () => {
    const precision = tokenPrecisionJudge({
      question: "When?",
      answer: "It opened in 2018",
      contexts: [{ content: "The airport opened in 2018." }],
    });
    expect(precision).toMatchObject({
      name: "token_precision",
      outcome: "ok",
      score: 0.75,
      passed: false,
      verdict: { token_precision: 0.75, words: 4, unsupported: ["it"] },
    });
    const contains = containsReferenceJudge({
      question: "Who?",
      answer: "David Seville did.",
      ground_truths: ["Seville"],
    });
    expect(contains).toMatchObject({ name: "contains_reference", score: 1, passed: true });
  });

  it("cannot judge without what they compare against, and say why", () => {
    expect(tokenPrecisionJudge({ question: "Q?", answer: "A" })).toMatchObject({
      outcome: "judge_error",
      score: null,
      error: { cause: "error" },
    });
    expect(containsReferenceJudge({ question: "Q?", answer: "A" })).toMatchObject({
      outcome: "judge_error",
    });
  });

  it("run by name through judgeLine, with no LLM client", async () => {
    const line = JudgeLineSchema.parse({
      question: "When did it open?",
      answer: "It opened in 2018.",
      contexts: ["The airport opened in 2018."],
      ground_truth: "2018",
    });
    const results = await judgeLine(line, ["token_precision", "contains_reference"], {
      config: DEFAULT_JUDGES_CONFIG,
    });
    expect(results.token_precision?.score).toBe(0.75);
    expect(results.contains_reference?.passed).toBe(true);
  });

  it("require a reference, or contexts, on every line, naming the field", () => {
    const parsed = judgeLineSchemaFor(["contains_reference", "token_precision"]).safeParse({
      question: "Q?",
      answer: "A",
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual([
      "ground_truth",
      "contexts",
    ]);
  });
});
