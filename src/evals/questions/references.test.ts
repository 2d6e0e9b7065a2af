import { describe, expect, it } from "vitest";
import { referencesOf, storedReferences } from "./references.js";

describe("referencesOf", () => {
  it("puts ground_truth first, drops blanks and repeats", () => {
    expect(
      referencesOf({ ground_truth: " Paris ", ground_truths: ["Paris", "", "the city of Paris"] }),
    ).toEqual(["Paris", "the city of Paris"]);
  });

  it("is empty when there is no reference", () => {
    expect(referencesOf({ ground_truth: "", ground_truths: null })).toEqual([]);
  });
});

describe("storedReferences", () => {
  it("keeps a list only when there are several references", () => {
    expect(storedReferences({ ground_truths: ["911"] })).toEqual({
      ground_truth: "911",
      ground_truths: null,
    });
    expect(storedReferences({ ground_truth: "", ground_truths: ["a", "b"] })).toEqual({
      ground_truth: "a",
      ground_truths: ["a", "b"],
    });
  });
});
