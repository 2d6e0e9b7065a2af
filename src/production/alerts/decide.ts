// What a rule's evaluation does with what it measured: fire, resolve, or nothing (and why). Pure:
// the evaluator measures and stores; this decides.

import type { AlertMeasure } from "../../store/index.js";

export interface RuleCondition {
  comparison: "below" | "above";
  threshold: number;
  min_count: number;
  cooldown_minutes: number;
}

export type AlertDecision =
  | { kind: "fire" }
  | { kind: "resolve" }
  | {
      kind: "hold";
      /** still firing; fine; too few answers to judge; breaching but inside the cool-down */
      reason: "firing" | "ok" | "too_few" | "cooldown";
    };

/** Whether the measure breaches the rule: enough counted, and the value past the threshold. */
export function breaches(rule: RuleCondition, measure: AlertMeasure): boolean {
  if (measure.value === null || measure.count < rule.min_count) return false;
  return rule.comparison === "below"
    ? measure.value < rule.threshold
    : measure.value > rule.threshold;
}

/**
 * An open episode resolves as soon as the rule no longer breaches (too few answers included: an
 * alert does not stay open on silence). A new episode fires only once the cool-down since the
 * last one's start has passed, so a flapping metric notifies at most once per cool-down.
 */
export function decideAlert(input: {
  rule: RuleCondition;
  measure: AlertMeasure;
  firing: boolean;
  lastFiredAt: Date | undefined;
  now: Date;
}): AlertDecision {
  const { rule, measure, firing, lastFiredAt, now } = input;
  const breaching = breaches(rule, measure);
  if (firing) return breaching ? { kind: "hold", reason: "firing" } : { kind: "resolve" };
  if (!breaching) {
    return { kind: "hold", reason: measure.count < rule.min_count ? "too_few" : "ok" };
  }
  const coolingUntil =
    lastFiredAt === undefined ? 0 : lastFiredAt.getTime() + rule.cooldown_minutes * 60_000;
  if (now.getTime() < coolingUntil) return { kind: "hold", reason: "cooldown" };
  return { kind: "fire" };
}
