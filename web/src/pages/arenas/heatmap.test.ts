import { describe, expect, it } from "vitest";
import { heatColor, pointsShare } from "./heatmap";

describe("pointsShare", () => {
  it("counts a tie as half a point", () => {
    expect(pointsShare({ wins: 3, ties: 2, losses: 5 })).toBeCloseTo(0.4);
    expect(pointsShare({ wins: 0, ties: 4, losses: 0 })).toBe(0.5);
  });
  it("is null when the pair was never compared", () => {
    expect(pointsShare({ wins: 0, ties: 0, losses: 0 })).toBeNull();
  });
});

describe("heatColor", () => {
  it("runs from red through white to blue", () => {
    expect(heatColor(0.5)).toBe("rgb(255 255 255)");
    expect(heatColor(0)).toBe("rgb(244 165 160)");
    expect(heatColor(1)).toBe("rgb(150 190 240)");
    expect(heatColor(null)).toBe("transparent");
  });
});
