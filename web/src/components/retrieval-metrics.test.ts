import { describe, expect, it } from "vitest";
import { relevantItem } from "./retrieval-metrics";

describe("relevantItem", () => {
  it("words a reference passage by its number and keeps an id as given", () => {
    expect(relevantItem("context 2", "contexts")).toEqual({ kind: "passage", n: 2 });
    // An id that happens to read "context 2" is still an id when the question named ids.
    expect(relevantItem("context 2", "ids")).toEqual({ kind: "id", id: "context 2" });
    expect(relevantItem("faq-metro-hours", "ids")).toEqual({ kind: "id", id: "faq-metro-hours" });
  });
});
