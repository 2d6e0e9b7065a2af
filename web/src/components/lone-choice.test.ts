import { describe, expect, it } from "vitest";
import { loneChoice } from "./lone-choice";

describe("loneChoice", () => {
  it("picks the only option when nothing is chosen", () => {
    expect(loneChoice(["a"], "")).toBe("a");
  });

  it("leaves a choice already made, and a list of several or none, alone", () => {
    expect(loneChoice(["a"], "b")).toBeUndefined();
    expect(loneChoice(["a", "b"], "")).toBeUndefined();
    expect(loneChoice([], "")).toBeUndefined();
  });
});
