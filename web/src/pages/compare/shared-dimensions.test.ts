import { describe, expect, it } from "vitest";
import { sharedDimensions } from "./shared-dimensions";

describe("sharedDimensions", () => {
  it("keeps the dimensions both runs have and lists the others by run", () => {
    expect(
      sharedDimensions(
        ["accuracy (offline)", "f1 (offline)"],
        ["score (reference)", "accuracy (offline)"],
      ),
    ).toEqual({
      labels: ["accuracy (offline)"],
      onlyBase: ["f1 (offline)"],
      onlyHead: ["score (reference)"],
    });
  });

  it("is empty when nothing is shared", () => {
    expect(sharedDimensions(["a"], ["b"]).labels).toEqual([]);
  });
});
