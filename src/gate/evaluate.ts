// The pure verdict (seed 004 §6.2): configuration -> enabled checks -> aggregate. Persisting the
// verdict is pipeline.ts's job.

import { AnswerAnalysis } from "./analysis.js";
import { GATE_CHECKS } from "./checks.js";
import { DEFAULT_GATE_CONFIG, resolveGateConfig, ruleVersion } from "./config.js";
import type {
  CheckName,
  EvaluationCheck,
  EvaluatorInput,
  GateConfig,
  GateStatus,
  GateVerdict,
} from "./schema.js";

/**
 * Seed 004 §6.2, exactly: any fail -> fail; else any warn -> partial; else any pass -> pass;
 * only skipped checks, or none at all -> skipped.
 */
export function aggregateStatus(checks: readonly Pick<EvaluationCheck, "status">[]): GateStatus {
  let warned = false;
  let passed = false;
  for (const check of checks) {
    if (check.status === "fail") return "fail";
    if (check.status === "warn") warned = true;
    else if (check.status === "pass") passed = true;
  }
  if (warned) return "partial";
  return passed ? "pass" : "skipped";
}

/** The score each check contributes (its detail.score), under its name in `scores`. */
const SCORE_NAMES: Partial<Record<CheckName, string>> = {
  citation_coverage: "citation_coverage",
  sentence_support: "sentence_support",
  numeric_consistency: "numeric_consistency",
  citation_markers: "marker_resolution",
};

/** Ratios in [0,1] from the checks that measured one; a skipped or disabled check adds none. */
function scoresOf(checks: readonly EvaluationCheck[]): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const check of checks) {
    const name = SCORE_NAMES[check.name as CheckName];
    const score = check.detail.score;
    if (name !== undefined && typeof score === "number") scores[name] = score;
  }
  return scores;
}

/**
 * Judges one answer. `input` must already satisfy EvaluatorInputSchema (the caller parses it at
 * its boundary); its `config` overrides `base`, which defaults to GateConfigSchema.parse({}).
 * Deterministic: the same input and configuration always give the same verdict.
 */
export function evaluateGate(
  input: EvaluatorInput,
  base: GateConfig = DEFAULT_GATE_CONFIG,
): GateVerdict {
  const config = resolveGateConfig(base, input.config);
  const analysis = new AnswerAnalysis(input);
  const checks: EvaluationCheck[] = [];
  for (const [name, check] of GATE_CHECKS) {
    if (config.checks[name].enabled) checks.push(check(input, config, analysis));
  }
  const status = aggregateStatus(checks);
  return {
    status,
    action: config.actions[status],
    rule_version: ruleVersion(config),
    checks,
    scores: scoresOf(checks),
    config,
  };
}
