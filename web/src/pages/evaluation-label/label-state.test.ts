import { describe, expect, it } from "vitest";
import {
  enterMeans,
  initialLabelState,
  isDirty,
  type LabelEvent,
  labelReducer,
  type LabelState,
} from "./label-state";

const run = (state: LabelState, ...events: LabelEvent[]) => events.reduce(labelReducer, state);

describe("the labelling view's reveal state", () => {
  it("stays blind until a complete label is saved, then reveals", () => {
    const blind = initialLabelState(null);
    expect(blind.phase).toBe("blind");
    expect(enterMeans(blind, "1-10")).toBe("incomplete");
    // Saving with no score says so and reveals nothing.
    const refused = run(blind, { type: "save", scale: "1-10" });
    expect(refused).toMatchObject({ phase: "blind", error: { kind: "incomplete" } });

    const scored = run(refused, { type: "score", score: 7 }, { type: "note", note: "vague" });
    expect(scored).toMatchObject({
      phase: "blind",
      error: null,
      draft: { score: 7, note: "vague" },
    });
    expect(enterMeans(scored, "1-10")).toBe("save");
    const saving = run(scored, { type: "save", scale: "1-10" });
    expect(saving.phase).toBe("saving");
    // Keys pressed while the save is in flight do not change what is being saved.
    expect(run(saving, { type: "score", score: 2 }).draft.score).toBe(7);
    const revealed = run(saving, { type: "saved", label: saving.draft });
    expect(revealed).toMatchObject({ phase: "revealed", saved: { score: 7, note: "vague" } });
    expect(isDirty(revealed)).toBe(false);
    expect(enterMeans(revealed, "1-10")).toBe("continue");
  });

  it("does not reveal when the save fails, and says why", () => {
    const saving = run(
      initialLabelState(null),
      { type: "pass", passed: false },
      { type: "save", scale: "pass_fail" },
    );
    const failed = run(saving, { type: "failed", message: "503 Service Unavailable" });
    expect(failed).toMatchObject({
      phase: "blind",
      error: { kind: "server", message: "503 Service Unavailable" },
      draft: { passed: false },
    });
    // A stale answer after the fact changes nothing.
    expect(run(failed, { type: "saved", label: failed.draft })).toBe(failed);
  });

  it("opens a result labelled before as revealed, and re-saves an edit", () => {
    const labelled = initialLabelState({ score: 4, passed: null, note: null });
    expect(labelled).toMatchObject({ phase: "revealed", draft: { score: 4, note: "" } });
    const edited = run(labelled, { type: "score", score: 5 });
    expect(edited.phase).toBe("revealed");
    expect(isDirty(edited)).toBe(true);
    expect(enterMeans(edited, "1-10")).toBe("save");
    const failed = run(edited, { type: "save", scale: "1-10" }, { type: "failed", message: "x" });
    // Already revealed before, so it stays revealed.
    expect(failed.phase).toBe("revealed");
    expect(failed.saved?.score).toBe(4);
  });

  it("needs a verdict on pass/fail and a score on a score scale", () => {
    const passed = run(initialLabelState(null), { type: "pass", passed: true });
    expect(enterMeans(passed, "pass_fail")).toBe("save");
    expect(enterMeans(passed, "1-5")).toBe("incomplete");
  });
});
