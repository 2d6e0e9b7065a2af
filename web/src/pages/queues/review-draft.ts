import { isTyping, type KeyPress, shortcutFor } from "../evaluation-label/shortcuts";
import type { Criterion, LabelValue } from "./queries";

// A reviewer's label of one queue item, criterion by criterion, by keyboard: digits score, p / f
// pass or fail, a / b / t pick an answer of a pair or a tie; each value moves on to the next
// criterion; Enter saves, and once saved, Enter asks for the next item. Pure.

export type ReviewAction =
  { kind: "value"; value: Omit<LabelValue, "criterion"> } | { kind: "save" } | { kind: "help" };

export interface Draft {
  values: Record<string, LabelValue>;
  /** The criterion the keys set now. */
  active: number;
}

export const emptyDraft = (): Draft => ({ values: {}, active: 0 });

/** What a key press does on `criterion`, or null when it is not a shortcut there. */
export function reviewKey(press: KeyPress, criterion: Criterion): ReviewAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey || isTyping(press.target)) return null;
  if (criterion.scale === "pairwise") {
    const tag = (press.target?.tagName ?? "").toLowerCase();
    if (press.key === "Enter") return tag === "button" || tag === "a" ? null : { kind: "save" };
    switch (press.key.toLowerCase()) {
      case "a":
        return { kind: "value", value: { choice: "a" } };
      case "b":
        return { kind: "value", value: { choice: "b" } };
      case "t":
        return { kind: "value", value: { choice: "tie" } };
      case "?":
        return { kind: "help" };
      default:
        return null;
    }
  }
  const action = shortcutFor(press, criterion.scale);
  if (!action) return null;
  if (action.kind === "score") return { kind: "value", value: { score: action.score } };
  if (action.kind === "pass") return { kind: "value", value: { passed: action.passed } };
  if (action.kind === "save" || action.kind === "next") return { kind: "save" };
  if (action.kind === "help") return { kind: "help" };
  return null;
}

/** Sets a criterion's value (the active one unless named) and moves to the next criterion. */
export function setValue(
  draft: Draft,
  criteria: readonly Criterion[],
  value: Omit<LabelValue, "criterion">,
  index = draft.active,
): Draft {
  const criterion = criteria[index];
  if (!criterion) return draft;
  return {
    values: { ...draft.values, [criterion.name]: { criterion: criterion.name, ...value } },
    active: Math.min(index + 1, criteria.length - 1),
  };
}

/** Every criterion's value in rubric order, or the first criterion still without one. */
export function labelsOf(
  draft: Draft,
  criteria: readonly Criterion[],
): { labels: LabelValue[] } | { missing: string } {
  const labels: LabelValue[] = [];
  for (const criterion of criteria) {
    const value = draft.values[criterion.name];
    if (!value) return { missing: criterion.name };
    labels.push(value);
  }
  return { labels };
}
