import { expect, it } from "vitest";
import { type EvaluationReport, compareToBaseline } from "./index.js";
import type { ReportResult } from "./report.js";

function result(
  position: number,
  question: string,
  score: number | null,
  passed: boolean | null,
  status = "SCORED",
): ReportResult {
  return {
    position,
    question_id: `id-${Math.random()}`,
    question,
    question_type: "FACTUAL",
    ground_truth: "",
    status,
    answer: null,
    citations: [],
    sources: [],
    gate: null,
    judges: {},
    retrieval: null,
    score,
    passed,
    error: null,
    latency_ms: null,
    attempts: 1,
    cost: null,
    human_labels: [],
  };
}

function reportOf(id: string, results: ReportResult[]): EvaluationReport {
  return {
    evaluation: { id } as EvaluationReport["evaluation"],
    summary: { average_score: 0.5, pass_rate: 0.5 } as EvaluationReport["summary"],
    results,
  };
}

it("matches questions by normalized text and lists regressions and improvements", () => {
  const baseline = reportOf("base", [
    result(0, "When did Line 1 open?", 0.9, true),
    result(1, "How long is the bridge?", 0.8, true),
    result(2, "Why did the salt works close?", 0.3, false),
    result(3, "Who founded the city?", 0.7, true),
    result(4, "Only in the baseline?", 0.7, true),
    result(5, "What is the ferry fare?", 0.6, false),
  ]);
  const current = reportOf("now", [
    // Same questions, written differently and in another order, with new ids.
    result(0, "why did the salt works close", 0.9, true),
    result(1, "WHEN did Line 1 open ?", 0.88, true),
    result(2, "How long is the bridge?", 0.5, false),
    result(3, "Who founded the city?", null, null, "BOT_ERROR"),
    result(4, "Only in this run?", 0.1, false),
    result(5, "What is the ferry fare?", 0.52, false),
  ]);
  const comparison = compareToBaseline(current, baseline);
  expect(comparison).toMatchObject({
    baseline_id: "base",
    tolerance: 0.05,
    matched: 5,
    only_in_current: 1,
    only_in_baseline: 1,
  });
  expect(comparison.regressions.map((c) => [c.question, c.reason])).toEqual([
    ["How long is the bridge?", "passed -> not passed"],
    ["Who founded the city?", "passed -> BOT_ERROR"],
    ["What is the ferry fare?", "score 0.600 -> 0.520"],
  ]);
  expect(comparison.improvements.map((c) => c.reason)).toEqual(["not passed -> passed"]);
  expect(comparison.regressions[0]?.baseline).toMatchObject({ position: 1, score: 0.8 });
});

it("words each change's reason in Chinese with lang zh, statuses and figures unchanged", () => {
  const baseline = reportOf("base", [
    result(0, "q1", 0.8, true),
    result(1, "q2", 0.6, false),
    result(2, "q3", 0.7, true),
  ]);
  const current = reportOf("now", [
    result(0, "q1", 0.5, false),
    result(1, "q2", 0.4, false),
    result(2, "q3", null, null, "JUDGE_ERROR"),
  ]);
  const reasons = (lang?: "en" | "zh") =>
    compareToBaseline(current, baseline, lang ? { lang } : {}).regressions.map((c) => c.reason);
  expect(reasons("zh")).toEqual(["通过 -> 未通过", "得分 0.600 -> 0.400", "通过 -> JUDGE_ERROR"]);
  expect(reasons()).toEqual(reasons("en"));
  expect(reasons("en")).toEqual([
    "passed -> not passed",
    "score 0.600 -> 0.400",
    "passed -> JUDGE_ERROR",
  ]);
});

it("ignores score changes within the tolerance, which can be set", () => {
  const baseline = reportOf("b", [result(0, "q", 0.6, false)]);
  const slightlyWorse = reportOf("c", [result(0, "q", 0.55, false)]);
  expect(compareToBaseline(slightlyWorse, baseline).regressions).toEqual([]);
  expect(compareToBaseline(slightlyWorse, baseline, { tolerance: 0.01 }).regressions).toHaveLength(
    1,
  );
  const better = reportOf("d", [result(0, "q", 0.7, false)]);
  expect(compareToBaseline(better, baseline).improvements).toHaveLength(1);
});
