import { describe, expect, it } from "vitest";
import { emptyDraft, labelsOf, reviewKey, setValue } from "./review-draft";

const criteria = [
  { name: "accuracy", scale: "1-5" as const, description: "" },
  { name: "safe", scale: "pass_fail" as const, description: "" },
];
const pair = { name: "preference", scale: "pairwise" as const, description: "" };

describe("a queue item's label by keyboard", () => {
  it("scores, passes and picks a side by key, never while typing", () => {
    expect(reviewKey({ key: "4" }, criteria[0]!)).toEqual({ kind: "value", value: { score: 4 } });
    expect(reviewKey({ key: "7" }, criteria[0]!)).toBeNull();
    expect(reviewKey({ key: "f" }, criteria[1]!)).toEqual({
      kind: "value",
      value: { passed: false },
    });
    expect(reviewKey({ key: "b" }, pair)).toEqual({ kind: "value", value: { choice: "b" } });
    expect(reviewKey({ key: "t" }, pair)).toEqual({ kind: "value", value: { choice: "tie" } });
    expect(reviewKey({ key: "Enter" }, pair)).toEqual({ kind: "save" });
    expect(reviewKey({ key: "a", target: { tagName: "TEXTAREA" } }, pair)).toBeNull();
    expect(reviewKey({ key: "a", ctrlKey: true }, pair)).toBeNull();
  });

  it("moves to the next criterion after each value and names the one still missing", () => {
    let draft = setValue(emptyDraft(), criteria, { score: 3 });
    expect(draft.active).toBe(1);
    expect(labelsOf(draft, criteria)).toEqual({ missing: "safe" });
    draft = setValue(draft, criteria, { passed: true });
    expect(draft.active).toBe(1);
    expect(labelsOf(draft, criteria)).toEqual({
      labels: [
        { criterion: "accuracy", score: 3 },
        { criterion: "safe", passed: true },
      ],
    });
  });
});
