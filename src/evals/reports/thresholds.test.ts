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

it("words each message in Chinese with lang zh, flags and figures unchanged", () => {
  const thresholds = { min_score: 0.7, min_pass_rate: 0.5, max_errors: 3 };
  const messages = (lang: "en" | "zh", patch: Partial<EvaluationSummary> = {}) =>
    checkThresholds(summary(patch), thresholds, lang).map((c) => c.message);
  expect(messages("zh")).toEqual([
    "平均得分 0.620 低于 --min-score 0.7",
    "通过率 0.700（已评分 10 个）达到 --min-pass-rate 0.5",
    "3 个错误（机器人 1 个，评判 2 个），未超过 --max-errors 3",
  ]);
  expect(messages("en")).toEqual([
    "average score 0.620 is below --min-score 0.7",
    "pass rate 0.700 (10 scored) meets --min-pass-rate 0.5",
    "3 error(s) (1 bot, 2 judge) within --max-errors 3",
  ]);
  expect(messages("zh", { average_score: null, pass_rate: null, scored: 0 }).slice(0, 2)).toEqual([
    "没有问题得到评分，没有平均得分可与 --min-score 0.7 比较",
    "没有问题得到评分，没有通过率可与 --min-pass-rate 0.5 比较",
  ]);
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
