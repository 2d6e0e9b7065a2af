import type { CompareColumns } from "../../store/index.js";

// Comparing two runs question by question (Langfuse's dataset-run compare, promptfoo's view):
// any two runs on one question set match by question id; runs on different sets match on the
// questions they share, by normalized text.

export type Change = "regression" | "improvement" | "unchanged";

export interface CompareSide {
  /** The run's result row, to open it in full (`GET /evaluations/{id}/results/{result_id}`). */
  result_id: string;
  question_id: string;
  position: number;
  status: CompareColumns["status"];
  score: number | null;
  passed: boolean | null;
  gate_status: string | null;
}

export interface CompareItem {
  question_text: string;
  question_type: string;
  base: CompareSide;
  head: CompareSide;
  /** head − base, when both were scored. */
  score_delta: number | null;
  change: Change;
}

export interface CompareCounts {
  shared: number;
  /**
   * Questions of one set both runs have whose text or references differ between the copies they
   * ran on (the set was edited between them): left out, so neither run is judged on another's.
   */
  changed_questions: number;
  only_base: number;
  only_head: number;
  regressions: number;
  improvements: number;
  unchanged: number;
  passed_to_failed: number;
  failed_to_passed: number;
  /** Mean of score_delta over questions scored in both runs. */
  mean_score_delta: number | null;
}

/** Score moves smaller than this are noise, not a change. */
export const SCORE_EPSILON = 1e-6;

/** Whitespace and case do not make two questions different. */
export function questionKey(text: string): string {
  return text.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
}

/** A question's references, trimmed, each once, `ground_truth` first. */
function referencesKey(row: Pick<CompareColumns, "ground_truth" | "ground_truths">): string {
  const all = [row.ground_truth, ...(row.ground_truths ?? [])]
    .map((reference) => reference.trim())
    .filter((reference) => reference !== "");
  return JSON.stringify([...new Set(all)]);
}

/** Whether two runs' copies of one question are the same question: its text and its references. */
export function sameQuestion(
  a: Pick<CompareColumns, "question_text" | "ground_truth" | "ground_truths">,
  b: Pick<CompareColumns, "question_text" | "ground_truth" | "ground_truths">,
): boolean {
  return (
    questionKey(a.question_text) === questionKey(b.question_text) &&
    referencesKey(a) === referencesKey(b)
  );
}

const isError = (side: CompareSide) => side.status === "BOT_ERROR" || side.status === "JUDGE_ERROR";

/** Regression: a pass lost, a lower score, or an error where there was a score; improvement the reverse. */
export function changeOf(base: CompareSide, head: CompareSide, delta: number | null): Change {
  if (base.passed === true && head.passed !== true) return "regression";
  if (base.passed !== true && head.passed === true) return "improvement";
  if (delta !== null) {
    if (delta < -SCORE_EPSILON) return "regression";
    if (delta > SCORE_EPSILON) return "improvement";
    return "unchanged";
  }
  if (base.status === "SCORED" && isError(head)) return "regression";
  if (isError(base) && head.status === "SCORED") return "improvement";
  return "unchanged";
}

const side = (row: CompareColumns): CompareSide => ({
  result_id: row.id,
  question_id: row.question_id,
  position: row.position,
  status: row.status,
  score: row.score,
  passed: row.passed,
  gate_status: row.gate_status,
});

const ORDER: Record<Change, number> = { regression: 0, improvement: 1, unchanged: 2 };

/**
 * Pairs the runs' results and orders them regressions first (largest drop first), then
 * improvements (largest gain first), then the unchanged in the head run's question order.
 */
export function compareRows(
  base: readonly CompareColumns[],
  head: readonly CompareColumns[],
  matchBy: "question_id" | "question_text",
): { items: CompareItem[]; counts: CompareCounts } {
  const keyOf = (row: CompareColumns) =>
    matchBy === "question_id" ? row.question_id : questionKey(row.question_text);
  const baseByKey = new Map(base.map((row) => [keyOf(row), row]));
  const items: CompareItem[] = [];
  let changed = 0;
  for (const row of head) {
    const before = baseByKey.get(keyOf(row));
    if (!before) continue;
    // Runs on different versions of one set: a question edited between them is not compared.
    // (Across sets, questions match by their text alone, and the sets are already said to differ.)
    if (matchBy === "question_id" && !sameQuestion(before, row)) {
      changed += 1;
      continue;
    }
    const b = side(before);
    const h = side(row);
    const delta =
      before.status === "SCORED" && row.status === "SCORED" && b.score !== null && h.score !== null
        ? h.score - b.score
        : null;
    items.push({
      question_text: row.question_text,
      question_type: row.question_type,
      base: b,
      head: h,
      score_delta: delta,
      change: changeOf(b, h, delta),
    });
  }
  items.sort((x, y) => {
    if (x.change !== y.change) return ORDER[x.change] - ORDER[y.change];
    if (x.change === "regression") return (x.score_delta ?? -2) - (y.score_delta ?? -2);
    if (x.change === "improvement") return (y.score_delta ?? 2) - (x.score_delta ?? 2);
    return x.head.position - y.head.position;
  });
  const deltas = items.flatMap((item) => (item.score_delta === null ? [] : [item.score_delta]));
  const count = (predicate: (item: CompareItem) => boolean) => items.filter(predicate).length;
  return {
    items,
    counts: {
      shared: items.length,
      changed_questions: changed,
      only_base: base.length - items.length - changed,
      only_head: head.length - items.length - changed,
      regressions: count((i) => i.change === "regression"),
      improvements: count((i) => i.change === "improvement"),
      unchanged: count((i) => i.change === "unchanged"),
      passed_to_failed: count((i) => i.base.passed === true && i.head.passed === false),
      failed_to_passed: count((i) => i.base.passed === false && i.head.passed === true),
      mean_score_delta:
        deltas.length === 0 ? null : deltas.reduce((a, b) => a + b, 0) / deltas.length,
    },
  };
}
