import { describe, expect, it } from "vitest";
import { LOSS, TIE, WIN } from "./outcomes.js";
import { combineSwapped } from "./swap-rule.js";

describe("combineSwapped", () => {
  it("counts a win only when both orders prefer the same contestant", () => {
    expect(combineSwapped("A", "B")).toEqual({ outcome: WIN, flipped: false });
    expect(combineSwapped("B", "A")).toEqual({ outcome: LOSS, flipped: false });
    expect(combineSwapped("tie", "tie")).toEqual({ outcome: TIE, flipped: false });
  });

  it("turns every disagreement into a tie and a flip", () => {
    // Always the first position: x wins in one order and loses in the other.
    expect(combineSwapped("A", "A")).toEqual({ outcome: TIE, flipped: true });
    expect(combineSwapped("B", "B")).toEqual({ outcome: TIE, flipped: true });
    expect(combineSwapped("A", "tie")).toEqual({ outcome: TIE, flipped: true });
    expect(combineSwapped("tie", "A")).toEqual({ outcome: TIE, flipped: true });
  });
});
