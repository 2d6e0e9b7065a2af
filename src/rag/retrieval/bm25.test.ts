import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../test/support/seeded-random.js";
import { Bm25Builder } from "./bm25.js";

/** BM25 straight from the formula, for comparison. */
function bruteForce(docs: string[][], query: string[], k1 = 1.2, b = 0.75) {
  const n = docs.length;
  const avg = docs.reduce((sum, doc) => sum + doc.length, 0) / n;
  const terms = [...new Set(query)];
  return docs.map((doc) => {
    let score = 0;
    for (const term of terms) {
      const df = docs.filter((d) => d.includes(term)).length;
      if (df === 0) continue;
      const tf = doc.filter((t) => t === term).length;
      if (tf === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avg));
    }
    return score;
  });
}

describe("Bm25Index", () => {
  const docs = [
    ["salt", "quay", "salt", "1784"],
    ["tram", "quay", "1891"],
    ["flood", "tidewall", "2016", "flood", "flood"],
    [],
  ];
  const builder = new Bm25Builder();
  for (const doc of docs) builder.add(doc);
  const index = builder.build();

  it("scores by the BM25 formula and ranks best first", () => {
    const expected = bruteForce(docs, ["salt", "quay"]);
    const hits = index.search(["salt", "quay", "salt"], 10);
    expect(hits.map((hit) => hit.doc)).toEqual([0, 1]);
    expect(hits[0]?.score).toBeCloseTo(expected[0] ?? 0, 10);
    expect(hits[1]?.score).toBeCloseTo(expected[1] ?? 0, 10);
  });

  it("returns nothing for unknown terms or k = 0, and knows which document holds a term", () => {
    expect(index.search(["nothing"], 5)).toEqual([]);
    expect(index.search(["salt"], 0)).toEqual([]);
    expect(index.contains(2, "flood")).toBe(true);
    expect(index.contains(1, "flood")).toBe(false);
    expect(index.contains(0, "nothing")).toBe(false);
    expect(index.documentFrequency("quay")).toBe(2);
    expect(index.idf("nothing")).toBeGreaterThan(index.idf("quay"));
  });

  it("agrees with the formula on a random corpus, ties to the lower document number", () => {
    const next = seededRandom(7);
    const vocabulary = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const pick = () => vocabulary[Math.floor(next() ** 2 * vocabulary.length)] as string;
    const corpus = Array.from({ length: 300 }, () =>
      Array.from({ length: 5 + Math.floor(next() * 40) }, pick),
    );
    const b = new Bm25Builder();
    for (const doc of corpus) b.add(doc);
    const big = b.build();
    for (let q = 0; q < 25; q++) {
      const query = Array.from({ length: 1 + Math.floor(next() * 4) }, pick);
      const scores = bruteForce(corpus, query);
      const expected = scores
        .map((score, doc) => ({ doc, score }))
        .filter((hit) => hit.score > 0)
        .sort((x, y) => y.score - x.score || x.doc - y.doc)
        .slice(0, 10);
      const actual = big.search(query, 10);
      expect(actual.map((hit) => hit.doc)).toEqual(expected.map((hit) => hit.doc));
      actual.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(expected[i]?.score ?? 0, 9);
      });
    }
  });

  it("is empty-safe", () => {
    const empty = new Bm25Builder().build();
    expect(empty.search(["x"], 3)).toEqual([]);
    expect(empty.size).toBe(0);
  });
});

describe("Bm25Builder", () => {
  it("indexes space-joined tokens as it indexes token arrays, through table growth", () => {
    const next = seededRandom(11);
    const docs = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + Math.floor(next() * 30) }, () => `t${Math.floor(next() * 20_000)}`),
    );
    const fromArrays = new Bm25Builder();
    const fromJoined = new Bm25Builder();
    for (const doc of docs) {
      fromArrays.add(doc);
      fromJoined.addJoined(doc.join(" "));
    }
    const a = fromArrays.build();
    const b = fromJoined.build();
    expect(b.size).toBe(a.size);
    for (let q = 0; q < 30; q++) {
      const query = [docs[q]?.[0] ?? "", `t${q}`];
      expect(b.search(query, 5)).toEqual(
        a.search(query, 5).map((hit) => ({ ...hit, score: expect.closeTo(hit.score, 9) })),
      );
    }
    expect(b.contains(3, docs[3]?.[0] ?? "")).toBe(true);
    const withEmpty = new Bm25Builder();
    withEmpty.addJoined("");
    withEmpty.addJoined("x  y");
    const index = withEmpty.build();
    expect(index.search(["x", "y", ""], 5).map((hit) => hit.doc)).toEqual([1]);
    expect(index.averageLength).toBe(1);
  });
});

describe("Bm25Index.extend", () => {
  it("equals a fresh build over the kept documents followed by the added ones", () => {
    const next = seededRandom(5);
    const make = (n: number) =>
      Array.from({ length: n }, () =>
        Array.from(
          { length: 1 + Math.floor(next() * 20) },
          () => `w${Math.floor(next() ** 2 * 300)}`,
        ),
      );
    const old = make(200);
    const extra = [...make(30), ["brand-new", "w1"]];
    const first = new Bm25Builder();
    for (const doc of old) first.add(doc);
    const base = first.build();
    for (const keep of [() => true, (doc: number) => doc % 3 !== 0]) {
      const additions = base.additions();
      for (const doc of extra) additions.add(doc);
      const extended = base.extend(keep, additions);
      const fresh = new Bm25Builder();
      for (const [doc, tokens] of old.entries()) if (keep(doc)) fresh.add(tokens);
      for (const tokens of extra) fresh.add(tokens);
      const expected = fresh.build();
      expect(extended.size).toBe(expected.size);
      for (const query of [["w1"], ["w2", "w40"], ["brand-new"], ["w7", "w8", "w250"]]) {
        expect(extended.search(query, 400)).toEqual(
          expected
            .search(query, 400)
            .map((hit) => ({ ...hit, score: expect.closeTo(hit.score, 9) })),
        );
      }
    }
    // The base index is untouched and does not know the new term.
    expect(base.size).toBe(200);
    expect(base.search(["brand-new"], 5)).toEqual([]);
  });
});
