import { describe, expect, it } from "vitest";
import { krippendorffAlpha, pairedAlpha } from "./krippendorff.js";

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four observers,
// twelve units, missing values (null); unit 12 has one value and is not pairable. The paper gives
// α = 0.743 (nominal), 0.815 (ordinal), 0.849 (interval).
const _ = null;
const OBSERVERS = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];
const UNITS = OBSERVERS[0]!.map((_v, unit) => OBSERVERS.map((observer) => observer[unit] ?? null));

describe("krippendorffAlpha on the textbook example", () => {
  it("gives the published nominal, ordinal and interval values", () => {
    expect(krippendorffAlpha(UNITS, "nominal")).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(UNITS, "ordinal")).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(UNITS, "interval")).toBeCloseTo(0.849, 3);
  });

  it("is undefined when one value is all there is", () => {
    expect(
      krippendorffAlpha(
        [
          [2, 2],
          [2, 2],
        ],
        "ordinal",
      ),
    ).toBeNull();
    expect(krippendorffAlpha([[1, null]], "ordinal")).toBeNull();
  });
});

describe("pairedAlpha", () => {
  it("equals the general form for two coders who coded every unit", () => {
    const judge = [1, 2, 3, 3, 2, 1, 4, 1, 2, 5, 4, 2];
    const human = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, 3, 3];
    const units = judge.map((v, i) => [v, human[i] ?? null]);
    for (const metric of ["nominal", "ordinal", "interval"] as const) {
      expect(pairedAlpha(judge, human, metric)).toBeCloseTo(
        krippendorffAlpha(units, metric) ?? NaN,
        12,
      );
    }
  });

  it("is 1 for perfect agreement and below 0 for systematic disagreement", () => {
    expect(pairedAlpha([1, 2, 3], [1, 2, 3], "ordinal")).toBe(1);
    expect(pairedAlpha([1, 3, 1, 3], [3, 1, 3, 1], "ordinal")).toBeLessThan(0);
  });
});
