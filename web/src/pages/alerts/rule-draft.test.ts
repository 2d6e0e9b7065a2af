import { describe, expect, it } from "vitest";
import { draftForMetric, EMPTY_DRAFT, ruleOf } from "./rule-draft";

describe("ruleOf", () => {
  it("turns the typed draft into the API's rule: a percentage as a share, empty filters left out", () => {
    expect(
      ruleOf({ ...EMPTY_DRAFT, name: "pass", service: " shop ", webhook: " https://h.example/x " }),
    ).toEqual({
      name: "pass",
      metric: "gate_pass_rate",
      comparison: "below",
      threshold: 0.9,
      window_minutes: 15,
      min_count: 50,
      cooldown_minutes: 60,
      filter: { service: "shop" },
      webhook_url: "https://h.example/x",
    });
  });

  it("gives each metric its usual direction and threshold", () => {
    expect(draftForMetric("latency_p95_ms")).toEqual({
      metric: "latency_p95_ms",
      comparison: "above",
      threshold: "2000",
    });
    expect(ruleOf({ ...EMPTY_DRAFT, ...draftForMetric("thumbs_down_share") }).threshold).toBe(0.2);
  });

  it("sends the chosen judge with a judge's mean only, its score typed as a percentage", () => {
    const judged = ruleOf({ ...EMPTY_DRAFT, ...draftForMetric("judge_mean"), judge: "review" });
    expect(judged).toMatchObject({
      metric: "judge_mean",
      judge: "review",
      comparison: "below",
      threshold: 0.6,
    });
    expect(ruleOf({ ...EMPTY_DRAFT, judge: "review" })).not.toHaveProperty("judge");
  });
});
