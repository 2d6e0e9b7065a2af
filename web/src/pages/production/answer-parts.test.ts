import { describe, expect, it } from "vitest";
import { citedIds, hitAnchor, hitsOf } from "./answer-parts";

describe("answer parts", () => {
  it("reads the hits and the cited ids, skipping malformed entries", () => {
    const input = {
      retrieval_hits: [
        { node_id: "n1", content: "Built in 1870.", score: 0.8 },
        { node_id: 7, content: "bad id" },
        "not a hit",
        { node_id: "n2", content: "Tickets cost 12 yuan.", source: "guide.md" },
      ],
      generation_output: { answer: "x", citations: [{ node_id: "n2" }, { node_id: "n2" }, {}] },
    };
    expect(hitsOf(input)).toEqual([
      { node_id: "n1", content: "Built in 1870.", score: 0.8 },
      { node_id: "n2", content: "Tickets cost 12 yuan.", source: "guide.md" },
    ]);
    expect(citedIds(input)).toEqual(["n2"]);
    expect(hitsOf({})).toEqual([]);
    expect(citedIds({ generation_output: "nope" })).toEqual([]);
    expect(hitAnchor(0)).toBe("hit-1");
  });
});
