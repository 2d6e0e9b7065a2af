import { expect, it } from "vitest";
import type { EvaluationSummary } from "../runs/index.js";
import { checkThresholds, ThresholdsSchema } from "./index.js";

const summary = (patch: Partial<EvaluationSummary>): EvaluationSummary =>
  ({
    scored: 10,
    average_score: 0.62,
    pass_rate: 0.7,
    errors: { bot: 1, judge: 2 },
    ...patch,
  }) as EvaluationSummary;

it("passes and fails each threshold with a message naming the flag and both numbers", () => {
  const checks = checkThresholds(summary({}), {
    min_score: 0.6,
    min_pass_rate: 0.8,
    max_errors: 2,
  });
  expect(checks.map((c) => [c.flag, c.ok])).toEqual([
    ["--min-score", true],
    ["--min-pass-rate", false],
    ["--max-errors", false],
  ]);
  expect(checks[0]?.message).toBe("average score 0.620 meets --min-score 0.6");
  expect(checks[1]?.message).toBe("pass rate 0.700 (10 scored) is below --min-pass-rate 0.8");
  expect(checks[2]?.message).toBe("3 error(s) (1 bot, 2 judge) exceed --max-errors 2");
});

it("checks only the thresholds set, and fails a measure that does not exist", () => {
  expect(checkThresholds(summary({}), {})).toEqual([]);
  const [check] = checkThresholds(summary({ average_score: null, scored: 0 }), { min_score: 0 });
  expect(check?.ok).toBe(false);
  expect(check?.message).toMatch(/no question was scored/);
  // A pass rate above 1 can never be met: a deliberate way to force a failure.
  expect(checkThresholds(summary({ pass_rate: 1 }), { min_pass_rate: 1.01 })[0]?.ok).toBe(false);
});

it("validates thresholds at the boundary", () => {
  expect(ThresholdsSchema.safeParse({ min_score: 1.5 }).success).toBe(false);
  expect(ThresholdsSchema.safeParse({ max_errors: 1.5 }).success).toBe(false);
  expect(ThresholdsSchema.safeParse({ max_errors: -1 }).success).toBe(false);
  expect(ThresholdsSchema.parse({ min_pass_rate: 0.9 })).toEqual({ min_pass_rate: 0.9 });
});
