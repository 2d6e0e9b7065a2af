import { describe, expect, it } from "vitest";
import type { EvaluationResult } from "../../api/types";
import { compareResults, countKinds } from "./deltas";

let position = 0;
const result = (text: string, over: Partial<EvaluationResult> = {}): EvaluationResult => ({
  id: `r${position}`,
  evaluation_id: "e",
  question_id: "q",
  position: position++,
  question_type: "FACTUAL",
  question_text: text,
  ground_truth: "",
  status: "SCORED",
  attempts: 1,
  latency_ms: null,
  usage: null,
  rag_answer: null,
  rag_answer_sources: null,
  rag_citations: null,
  rag_tool_calls: null,
  gate_status: "pass",
  gate: null,
  judges: null,
  score: 0.5,
  passed: true,
  error: null,
  ...over,
});

describe("compareResults", () => {
  it("puts regressions first, the largest drop first, and keeps only shared questions", () => {
    const base = [
      result("a", { score: 0.9 }),
      result("b", { score: 0.9 }),
      result("c", { score: 0.4, passed: false }),
      result("d", { score: 0.7 }),
      result("only in A"),
    ];
    const head = [
      result("A ", { score: 0.9 }),
      result("b", { score: 0.5, passed: false }),
      result("c", { score: 0.8, passed: true }),
      result("d", { score: 0.6 }),
      result("only in B"),
    ];
    const deltas = compareResults(base, head);
    expect(deltas.map((d) => [d.question_text, d.kind])).toEqual([
      ["b", "regression"],
      ["d", "regression"],
      ["c", "improvement"],
      ["a", "unchanged"],
    ]);
    expect(deltas[0]?.delta).toBeCloseTo(-0.4);
    expect(countKinds(deltas)).toEqual({ regression: 2, improvement: 1, changed: 0, unchanged: 1 });
  });

  it("counts a scored question turning into an error as a regression with no delta", () => {
    const [delta] = compareResults(
      [result("q", { score: 0.8, passed: false })],
      [result("q", { status: "BOT_ERROR", score: null, passed: null })],
    );
    expect(delta?.kind).toBe("regression");
    expect(delta?.delta).toBeNull();
  });
});
