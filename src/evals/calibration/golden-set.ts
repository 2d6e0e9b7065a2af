// Seed 002 section 5.3's manual golden set, made strict: the judge's agreement with people, the
// same figures for a constant baseline (always the most common human score), and the verdict.
// On a public RAG dialogue set "always 3" is within ±1 of people 95% of the time, so the ±1 share
// alone would pass a useless judge: the verdict also needs κ and a win over that baseline.

import {
  type Confusion,
  confusion,
  meanAbsoluteError,
  mostCommon,
  quadraticWeightedKappa,
  shareWithin,
} from "./agreement.js";
import { pairedAlpha } from "./krippendorff.js";
import { kendallTauB, spearmanRho } from "./rank-correlation.js";

export interface ScoreFigures {
  n: number;
  /** Mean |judge − human| on the judge's raw score. */
  mae: number | null;
  /** Share with |judge − human| ≤ 1 (the tolerance), on the raw score. */
  within_1: number | null;
  /** Quadratic-weighted Cohen's κ, the judge's score rounded to the scale's whole points. */
  kappa_quadratic: number | null;
  /** Krippendorff's α, ordinal, on the same rounded scores. */
  alpha_ordinal: number | null;
  spearman: number | null;
  kendall_tau_b: number | null;
}

export interface PassFailFigures extends Confusion {
  n: number;
  /** Cohen's κ on pass/fail. */
  kappa: number | null;
}

export interface GoldenSetOptions {
  /** The ±1 share the judge must reach (seed 002's target), default 0.9. */
  target: number;
  /** The κ the judge must reach, default 0.6. */
  kappaMin: number;
  /** Seed 002's ±1. */
  tolerance: number;
}

export const DEFAULT_GOLDEN_SET: GoldenSetOptions = { target: 0.9, kappaMin: 0.6, tolerance: 1 };

export interface VerdictCondition {
  name: "labels" | "within_1" | "accuracy" | "kappa" | "beats_baseline";
  ok: boolean;
  value: number | null;
  threshold: number | null;
  message: string;
}

export interface GoldenSetVerdict {
  passed: boolean;
  /** What the verdict was decided on: scores when people gave scores, else pass/fail labels. */
  basis: "scores" | "pass_fail" | "none";
  conditions: VerdictCondition[];
  /** The messages of the conditions that failed. */
  failed: string[];
}

/** The judge's score on the scale's whole points, for κ and α (6.7 → 7). */
export function roundToScale(value: number, scale: { min: number; max: number }): number {
  return Math.min(scale.max, Math.max(scale.min, Math.round(value)));
}

export function scoreFigures(
  judge: ArrayLike<number>,
  human: ArrayLike<number>,
  scale: { min: number; max: number },
  tolerance = 1,
): ScoreFigures {
  const n = judge.length;
  const rounded = new Float64Array(n);
  for (let i = 0; i < n; i++) rounded[i] = roundToScale(judge[i] as number, scale);
  return {
    n,
    mae: meanAbsoluteError(judge, human),
    within_1: shareWithin(judge, human, tolerance),
    kappa_quadratic: quadraticWeightedKappa(rounded, human),
    alpha_ordinal: pairedAlpha(rounded, human, "ordinal"),
    spearman: spearmanRho(judge, human),
    kendall_tau_b: kendallTauB(judge, human),
  };
}

/** The constant baseline: always the most common human score (ties: the smaller). */
export function constantBaseline(
  human: ArrayLike<number>,
  scale: { min: number; max: number },
  tolerance = 1,
): (ScoreFigures & { constant: number }) | null {
  const constant = mostCommon(human);
  if (constant === null) return null;
  const judge = new Float64Array(human.length).fill(constant);
  return { constant, ...scoreFigures(judge, human, scale, tolerance) };
}

export function passFailFigures(
  judge: ArrayLike<boolean>,
  human: ArrayLike<boolean>,
): PassFailFigures {
  const counts = confusion(judge, human);
  const a = new Float64Array(judge.length);
  const b = new Float64Array(human.length);
  for (let i = 0; i < a.length; i++) {
    a[i] = judge[i] ? 1 : 0;
    b[i] = human[i] ? 1 : 0;
  }
  return { n: judge.length, ...counts, kappa: quadraticWeightedKappa(a, b) };
}

/** The constant pass/fail baseline: always the people's more common verdict (ties: pass). */
export function passFailBaseline(
  human: ArrayLike<boolean>,
): (PassFailFigures & { constant: boolean }) | null {
  if (human.length === 0) return null;
  let passes = 0;
  for (let i = 0; i < human.length; i++) if (human[i]) passes++;
  const constant = passes * 2 >= human.length;
  return { constant, ...passFailFigures(new Array<boolean>(human.length).fill(constant), human) };
}

const fmt = (value: number | null) => (value === null ? "undefined" : value.toFixed(3));

/**
 * Passes only when the ±1 share meets the target, κ meets its threshold, and the judge's MAE is
 * below the constant baseline's. With pass/fail labels only: accuracy for the ±1 share (on 0/1
 * every pair is within 1), and accuracy above the baseline's.
 */
export function goldenSetVerdict(
  figures: {
    scores: ScoreFigures | null;
    baseline: (ScoreFigures & { constant: number }) | null;
    passFail: PassFailFigures | null;
    passFailBaseline: (PassFailFigures & { constant: boolean }) | null;
  },
  options: GoldenSetOptions = DEFAULT_GOLDEN_SET,
): GoldenSetVerdict {
  const conditions: VerdictCondition[] = [];
  const { scores, baseline, passFail } = figures;
  let basis: GoldenSetVerdict["basis"] = "none";
  if (scores && scores.n > 0 && baseline) {
    basis = "scores";
    const within = scores.within_1;
    conditions.push({
      name: "within_1",
      ok: within !== null && within >= options.target,
      value: within,
      threshold: options.target,
      message: `share within ±${options.tolerance} is ${fmt(within)}, target ${options.target}`,
    });
    pushKappa(conditions, scores.kappa_quadratic, options, "quadratic-weighted κ");
    const beats = scores.mae !== null && baseline.mae !== null && scores.mae < baseline.mae;
    conditions.push({
      name: "beats_baseline",
      ok: beats,
      value: scores.mae,
      threshold: baseline.mae,
      message: `MAE ${fmt(scores.mae)} ${beats ? "beats" : "does not beat"} the constant baseline's ${fmt(baseline.mae)} (always ${baseline.constant})`,
    });
  } else if (passFail && passFail.n > 0 && figures.passFailBaseline) {
    basis = "pass_fail";
    const accuracy = passFail.accuracy;
    conditions.push({
      name: "accuracy",
      ok: accuracy !== null && accuracy >= options.target,
      value: accuracy,
      threshold: options.target,
      message: `pass/fail accuracy is ${fmt(accuracy)}, target ${options.target}`,
    });
    pushKappa(conditions, passFail.kappa, options, "Cohen's κ on pass/fail");
    const base = figures.passFailBaseline;
    const beats = accuracy !== null && base.accuracy !== null && accuracy > base.accuracy;
    conditions.push({
      name: "beats_baseline",
      ok: beats,
      value: accuracy,
      threshold: base.accuracy,
      message: `accuracy ${fmt(accuracy)} ${beats ? "beats" : "does not beat"} the constant baseline's ${fmt(base.accuracy)} (always ${base.constant ? "pass" : "fail"})`,
    });
  } else {
    conditions.push({
      name: "labels",
      ok: false,
      value: 0,
      threshold: null,
      message: "no judged result has a human label on this judge's scale or pass/fail",
    });
  }
  const failed = conditions.filter((c) => !c.ok).map((c) => c.message);
  return { passed: failed.length === 0, basis, conditions, failed };
}

function pushKappa(
  conditions: VerdictCondition[],
  kappa: number | null,
  options: GoldenSetOptions,
  what: string,
) {
  conditions.push({
    name: "kappa",
    ok: kappa !== null && kappa >= options.kappaMin,
    value: kappa,
    threshold: options.kappaMin,
    message: `${what} is ${fmt(kappa)}, threshold ${options.kappaMin}`,
  });
}
