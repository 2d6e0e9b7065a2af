import type { EvaluationResult } from "../../api/types";

// Per-question deltas between a base run (A) and a head run (B). Runs on different question sets
// compare on the questions they share: the same question text, normalized.

export type DeltaKind = "regression" | "improvement" | "changed" | "unchanged";

export interface QuestionDelta {
  key: string;
  question_text: string;
  base: EvaluationResult;
  head: EvaluationResult;
  /** head.score - base.score; null when either side has no score (an error, never a zero). */
  delta: number | null;
  kind: DeltaKind;
}

/** Scores closer than this are the same score (rounding in stored judges). */
export const SCORE_EPSILON = 1e-6;

export function compareKey(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

function kindOf(base: EvaluationResult, head: EvaluationResult, delta: number | null): DeltaKind {
  // Losing a pass, or a scored question turning into an error, is a regression whatever the score.
  if (base.passed === true && head.passed !== true) return "regression";
  if (base.passed !== true && head.passed === true) return "improvement";
  if (base.status === "SCORED" && head.status !== "SCORED") return "regression";
  if (base.status !== "SCORED" && head.status === "SCORED") return "improvement";
  if (delta !== null && delta < -SCORE_EPSILON) return "regression";
  if (delta !== null && delta > SCORE_EPSILON) return "improvement";
  if (base.status !== head.status || base.gate_status !== head.gate_status) return "changed";
  return "unchanged";
}

const ORDER: Record<DeltaKind, number> = {
  regression: 0,
  changed: 1,
  improvement: 2,
  unchanged: 3,
};

/**
 * The shared questions' deltas, regressions first (largest drop first), then changed, then
 * improvements (largest gain first), then unchanged in question order.
 */
export function compareResults(
  base: readonly EvaluationResult[],
  head: readonly EvaluationResult[],
): QuestionDelta[] {
  const heads = new Map<string, EvaluationResult>();
  for (const result of head) heads.set(compareKey(result.question_text), result);
  const deltas: QuestionDelta[] = [];
  for (const b of base) {
    const key = compareKey(b.question_text);
    const h = heads.get(key);
    if (!h) continue;
    const delta = b.score !== null && h.score !== null ? h.score - b.score : null;
    deltas.push({
      key,
      question_text: b.question_text,
      base: b,
      head: h,
      delta,
      kind: kindOf(b, h, delta),
    });
  }
  return deltas.sort((x, y) => {
    const byKind = ORDER[x.kind] - ORDER[y.kind];
    if (byKind !== 0) return byKind;
    if (x.kind === "regression" || x.kind === "improvement") {
      const dx = Math.abs(x.delta ?? 1);
      const dy = Math.abs(y.delta ?? 1);
      if (dx !== dy) return dy - dx;
    }
    return x.base.position - y.base.position;
  });
}

export function countKinds(deltas: readonly QuestionDelta[]): Record<DeltaKind, number> {
  const counts: Record<DeltaKind, number> = {
    regression: 0,
    improvement: 0,
    changed: 0,
    unchanged: 0,
  };
  for (const d of deltas) counts[d.kind]++;
  return counts;
}
