import { describe, expect, it } from "vitest";
import { AlertRuleInputSchema, AlertRulePatchSchema, judgeProblem } from "./rule-input.js";

const RULE = {
  name: "offline judge",
  comparison: "below",
  threshold: 0.6,
  webhook_url: "http://127.0.0.1:9/hook",
};

const issuesOf = (input: unknown) => {
  const parsed = AlertRuleInputSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join("."), i.message]);
};

describe("AlertRuleInputSchema's judge", () => {
  it("takes a judge_mean rule naming a monitor's judge", () => {
    const parsed = AlertRuleInputSchema.parse({ ...RULE, metric: "judge_mean", judge: "review" });
    expect(parsed).toMatchObject({ metric: "judge_mean", judge: "review", threshold: 0.6 });
  });

  it("refuses judge_mean without a judge, naming the field and the judges", () => {
    expect(issuesOf({ ...RULE, metric: "judge_mean" })).toEqual([
      ["judge", "a judge's mean names its judge: one of offline, token_precision, review, rubric"],
    ]);
  });

  it("refuses a judge on another metric, and a judge monitors do not run", () => {
    expect(issuesOf({ ...RULE, metric: "gate_pass_rate", judge: "offline" })).toEqual([
      ["judge", "only a judge's mean (metric judge_mean) names a judge"],
    ]);
    const unknown = issuesOf({ ...RULE, metric: "judge_mean", judge: "x".repeat(500) });
    expect(unknown.map(([path]) => path)).toContain("judge");
  });

  it("keeps a judge's mean on the 0-1 scale judges' scores are stored on", () => {
    expect(issuesOf({ ...RULE, metric: "judge_mean", judge: "offline", threshold: 7 })).toEqual([
      ["threshold", "the judge's mean score is between 0 and 1"],
    ]);
  });

  it("leaves the judge of a change to the merged rule (rules.ts)", () => {
    expect(AlertRulePatchSchema.parse({ judge: "rubric" })).toEqual({ judge: "rubric" });
    expect(judgeProblem("judge_mean", null)).toContain("names its judge");
    expect(judgeProblem("latency_p95_ms", null)).toBeUndefined();
  });
});
