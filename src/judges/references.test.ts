import { describe, expect, it } from "vitest";
import { referencesOf } from "./references.js";

describe("referencesOf", () => {
  it("puts ground_truth first, then ground_truths, without blanks or repeats", () => {
    expect(
      referencesOf({
        ground_truth: "Denver Broncos",
        ground_truths: ["Broncos", " ", "Denver Broncos "],
      }),
    ).toEqual(["Denver Broncos", "Broncos"]);
    expect(referencesOf({ ground_truths: ["1811"] })).toEqual(["1811"]);
    expect(referencesOf({ ground_truth: "  " })).toEqual([]);
    expect(referencesOf({})).toEqual([]);
  });
});
