import { describe, expect, it } from "vitest";
import type { EvaluationSummary } from "../../api/types";
import { radarSeries } from "./chart-data";

const summary = (judges: EvaluationSummary["judges"]): EvaluationSummary => ({
  total: 2,
  completed: 2,
  pending: 0,
  running: 0,
  scored: 2,
  errors: { bot: 0, judge: 0 },
  average_score: 0.5,
  pass_rate: 0.5,
  gate: {},
  judges,
  by_question_type: {},
  latency_ms: { mean: null, p50: null, p95: null },
  usage: { prompt_tokens: 0, completion_tokens: 0, calls: 0 },
});
const block = (
  metrics: Record<string, number | null>,
  distribution: Record<string, number> = {},
) => ({
  count: 2,
  mean_score: 0.5,
  mean_raw: 5,
  pass_rate: 0.5,
  distribution,
  metrics,
});

describe("radarSeries", () => {
  it("scales the rubric's 1-10 dimensions to 0-1 and adds the offline metrics", () => {
    const s = summary({
      rubric: block({ accuracy: 8, completeness: 6, clarity: 10 }),
      offline: block({ accuracy: 1, f1: 0.4, rouge_l: 0.3, groundedness: null, exact_match: 0 }),
    });
    expect(radarSeries(s)).toEqual({
      labels: ["accuracy", "completeness", "clarity", "f1", "rouge_l", "exact_match"],
      values: [0.8, 0.6, 1, 0.4, 0.3, 0],
    });
  });
});
