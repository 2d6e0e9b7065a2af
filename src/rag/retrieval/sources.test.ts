import { describe, expect, it } from "vitest";
import { MemoryIndex } from "./memory.js";
import { VectorIndex } from "./vector.js";

describe("VectorIndex", () => {
  const index = VectorIndex.fromRows([
    { id: "x", embedding: [1, 0, 0] },
    { id: "xy", embedding: [1, 1, 0] },
    { id: "y", embedding: [0, 2, 0] },
    { id: "zero", embedding: [0, 0, 0] },
    { id: "short", embedding: [1, 0] },
  ]);

  it("ranks by cosine similarity, leaving out vectors it cannot compare", () => {
    expect(index.size).toBe(3);
    const hits = index.search([2, 0, 0], 2);
    expect(hits.map((hit) => hit.node_id)).toEqual(["x", "xy"]);
    expect(hits[0]?.cosine).toBeCloseTo(1, 6);
    expect(hits[1]?.cosine).toBeCloseTo(Math.SQRT1_2, 6);
    expect(index.search([0, 1, 0], 10).map((hit) => hit.node_id)).toEqual(["y", "xy", "x"]);
  });

  it("returns nothing for a query of another size or of zero length", () => {
    expect(index.search([1, 0], 3)).toEqual([]);
    expect(index.search([0, 0, 0], 3)).toEqual([]);
    expect(VectorIndex.fromRows([]).search([1], 3)).toEqual([]);
  });
});

describe("MemoryIndex", () => {
  const memory = MemoryIndex.build([
    { query: "When did the last tram run?", answer: "In 1971 [c1].", node_id: "c1", score: 0.9 },
    {
      query: "Last tram in Lanting",
      answer: "1971, buses took over [c2].",
      node_id: "c2",
      score: 0.5,
    },
    { query: "How long is the bridge?", answer: "1,340 metres [c3].", node_id: "c3", score: 1 },
    { query: "When did the trams stop?", answer: "1971 [gone].", node_id: "gone", score: 1 },
  ]);

  it("returns the chunks cited by matching observations, weighted by their score", () => {
    const hits = memory.search(["last", "tram", "run"], 10, {
      candidates: 10,
      isKnown: (id) => id !== "gone",
    });
    expect(hits.map((hit) => hit.node_id)).toEqual(["c1", "c2"]);
    expect(hits[0]?.match).toBeCloseTo(0.9, 6);
    expect(hits[1]?.match).toBeLessThan(0.5);
    expect(memory.size).toBe(4);
  });

  it("extends with newer observations as if built from all of them", () => {
    const all = [
      { id: 1, query: "last tram", answer: "1971 [a]", node_id: "a", score: 1 },
      { id: 2, query: "bridge length", answer: "1,340 m [b]", node_id: "b", score: 0.8 },
      { id: 5, query: "tram routes", answer: "three routes [c]", node_id: "c", score: 0.6 },
    ];
    const grown = MemoryIndex.build(all.slice(0, 1)).extend(all.slice(1));
    const whole = MemoryIndex.build(all);
    expect(grown.lastId).toBe(5);
    expect(grown.extend([])).toBe(grown);
    for (const terms of [["tram"], ["bridge", "length"], ["route"]]) {
      const options = { candidates: 10, isKnown: () => true };
      expect(grown.search(terms, 5, options)).toEqual(whole.search(terms, 5, options));
    }
  });

  it("finds nothing for an unrelated query", () => {
    expect(memory.search(["salt"], 10, { candidates: 10, isKnown: () => true })).toEqual([]);
  });
});
