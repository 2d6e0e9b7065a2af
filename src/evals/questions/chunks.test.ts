import { describe, expect, it } from "vitest";
import { chunkLanguage, pickChunksRoundRobin } from "./chunks.js";

const documents = [
  { document_id: "a", chunks: [1, 2, 3].map((i) => ({ id: `a${i}`, content: `A ${i}` })) },
  { document_id: "b", chunks: [{ id: "b1", content: "B 1" }] },
  { document_id: "c", chunks: [1, 2].map((i) => ({ id: `c${i}`, content: `C ${i}` })) },
  { document_id: "empty", chunks: [] },
];

describe("pickChunksRoundRobin", () => {
  it("takes the first chunk of each document, then the second of each, and so on", () => {
    expect(pickChunksRoundRobin(documents).map((c) => c.chunk_id)).toEqual([
      "a1",
      "b1",
      "c1",
      "a2",
      "c2",
      "a3",
    ]);
  });

  it("stops at count, mid-round", () => {
    expect(pickChunksRoundRobin(documents, 4)).toEqual([
      { document_id: "a", chunk_id: "a1", content: "A 1" },
      { document_id: "b", chunk_id: "b1", content: "B 1" },
      { document_id: "c", chunk_id: "c1", content: "C 1" },
      { document_id: "a", chunk_id: "a2", content: "A 2" },
    ]);
    expect(pickChunksRoundRobin(documents, 0)).toEqual([]);
  });

  it("skips blank chunks and handles no documents", () => {
    const withBlank = [
      {
        document_id: "x",
        chunks: [
          { id: "x1", content: " \n" },
          { id: "x2", content: "t" },
        ],
      },
    ];
    expect(pickChunksRoundRobin(withBlank).map((c) => c.chunk_id)).toEqual(["x2"]);
    expect(pickChunksRoundRobin([])).toEqual([]);
  });
});

describe("chunkLanguage", () => {
  it("is zh for mostly Chinese text, even quoting English names", () => {
    expect(chunkLanguage("2016年7月12日，受台风“白鹭”和天文大潮共同影响，玉江水位突破纪录。")).toBe(
      "zh",
    );
    expect(chunkLanguage("澜汀地铁（Lanting Metro）1号线于2009年开通。")).toBe("zh");
  });

  it("is en for English text, even quoting a Chinese name", () => {
    expect(
      chunkLanguage("The festival is called 盐灯节 and is held on the Old Quay every October."),
    ).toBe("en");
    expect(chunkLanguage("12345")).toBe("en");
  });
});
