import type { LabelScale } from "./shortcuts";

// The reveal state machine of one result in the labelling view. The judges' verdict is shown only
// in the "revealed" phase, which is reached by saving a label (or by opening a result labelled
// before): a person scores blind, so the judge cannot anchor them (seed 002 section 4).

export interface Draft {
  score: number | null;
  passed: boolean | null;
  note: string;
}

export type Phase = "blind" | "saving" | "revealed";

export interface LabelState {
  phase: Phase;
  /** What the person has chosen so far. */
  draft: Draft;
  /** The label as last saved; null until there is one. */
  saved: Draft | null;
  /** Why the last save did not happen: a missing score, or the server's message. */
  error: { kind: "incomplete" } | { kind: "server"; message: string } | null;
}

export type LabelEvent =
  | { type: "score"; score: number }
  | { type: "pass"; passed: boolean }
  | { type: "note"; note: string }
  | { type: "save"; scale: LabelScale }
  | { type: "saved"; label: Draft }
  | { type: "failed"; message: string };

const EMPTY: Draft = { score: null, passed: null, note: "" };

/** The state for a result as loaded: revealed when it already has the person's label. */
export function initialLabelState(
  label: { score: number | null; passed: boolean | null; note: string | null } | null,
): LabelState {
  if (!label) return { phase: "blind", draft: EMPTY, saved: null, error: null };
  const saved = { score: label.score, passed: label.passed, note: label.note ?? "" };
  return { phase: "revealed", draft: saved, saved, error: null };
}

/** Whether the draft holds what `scale` needs: a score on a score scale, a verdict on pass/fail. */
export function isComplete(draft: Draft, scale: LabelScale): boolean {
  return scale === "pass_fail" ? draft.passed !== null : draft.score !== null;
}

/** Whether the draft differs from what was saved (an unsaved result always does). */
export function isDirty(state: LabelState): boolean {
  const { draft, saved } = state;
  return (
    !saved ||
    draft.score !== saved.score ||
    draft.passed !== saved.passed ||
    draft.note.trim() !== saved.note.trim()
  );
}

/**
 * What Enter means now: save a complete changed label, continue to the next result once a saved
 * label is unchanged, or nothing yet (no score chosen).
 */
export function enterMeans(
  state: LabelState,
  scale: LabelScale,
): "save" | "continue" | "incomplete" {
  if (state.phase === "revealed" && !isDirty(state)) return "continue";
  return isComplete(state.draft, scale) ? "save" : "incomplete";
}

export function labelReducer(state: LabelState, event: LabelEvent): LabelState {
  switch (event.type) {
    case "score":
    case "pass":
    case "note": {
      // A save in flight keeps the draft it sends.
      if (state.phase === "saving") return state;
      const draft =
        event.type === "score"
          ? { ...state.draft, score: event.score }
          : event.type === "pass"
            ? { ...state.draft, passed: event.passed }
            : { ...state.draft, note: event.note };
      return { ...state, draft, error: null };
    }
    case "save":
      if (state.phase === "saving") return state;
      if (!isComplete(state.draft, event.scale)) return { ...state, error: { kind: "incomplete" } };
      return { ...state, phase: "saving", error: null };
    case "saved":
      if (state.phase !== "saving") return state;
      return { phase: "revealed", draft: event.label, saved: event.label, error: null };
    case "failed":
      if (state.phase !== "saving") return state;
      // Not saved, so not revealed: back where the person was.
      return {
        ...state,
        phase: state.saved ? "revealed" : "blind",
        error: { kind: "server", message: event.message },
      };
  }
}
