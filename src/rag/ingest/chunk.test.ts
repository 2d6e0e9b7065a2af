import { describe, expect, it } from "vitest";
import { chunkBlocks, weightedLength } from "./chunk.js";
import type { DocumentBlock } from "./document.js";

const sentence = (i: number) => `Sentence number ${i} talks about the harbour of Lanting.`;

describe("chunkBlocks", () => {
  it("chunks a block of 300,000 one-letter lines (its units once overflowed the call stack)", () => {
    const text = "a\n".repeat(300_000).trim();
    const chunks = chunkBlocks([{ text }], { chunk_size: 1_000, chunk_overlap: 150 });
    expect(chunks[0]?.metadata.start).toBe(0);
    expect(chunks.at(-1)?.metadata.end).toBe(text.length);
  });

  it("packs sentences up to chunk_size and overlaps whole trailing sentences", () => {
    const text = Array.from({ length: 40 }, (_, i) => sentence(i)).join(" ");
    const blocks: DocumentBlock[] = [{ text }];
    const chunks = chunkBlocks(blocks, { chunk_size: 300, chunk_overlap: 100 });
    expect(chunks.length).toBeGreaterThan(5);
    chunks.forEach((chunk, i) => {
      expect(chunk.position).toBe(i);
      // Every chunk is an exact slice of the document text.
      expect(text.slice(chunk.metadata.start, chunk.metadata.end)).toBe(chunk.content);
      expect(weightedLength(chunk.content)).toBeLessThanOrEqual(300 + 100);
      if (i > 0) {
        const previous = chunks[i - 1];
        // Starts inside the previous chunk (the overlap) and moves forward.
        expect(chunk.metadata.start).toBeLessThan(previous?.metadata.end ?? 0);
        expect(chunk.metadata.start).toBeGreaterThan(previous?.metadata.start ?? 0);
        expect(chunk.content.startsWith("Sentence number")).toBe(true);
      }
    });
    // Together they cover the whole text.
    expect(chunks[0]?.metadata.start).toBe(0);
    expect(chunks.at(-1)?.metadata.end).toBe(text.length);
  });

  it("does not overlap when chunk_overlap is 0", () => {
    const text = Array.from({ length: 20 }, (_, i) => sentence(i)).join(" ");
    const chunks = chunkBlocks([{ text }], { chunk_size: 200, chunk_overlap: 0 });
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]?.metadata.start).toBeGreaterThanOrEqual(chunks[i - 1]?.metadata.end ?? 0);
    }
  });

  it("never crosses a section or a page and labels chunks with them", () => {
    const blocks: DocumentBlock[] = [
      { text: "History", section: "History" },
      { text: "Founded in 1784.", section: "History" },
      { text: "Transport", section: "Transport" },
      { text: "Trams from 1891.", section: "Transport" },
      { text: "Page two text.", page: 2 },
    ];
    const chunks = chunkBlocks(blocks, { chunk_size: 1000, chunk_overlap: 150 });
    expect(
      chunks.map((chunk) => [chunk.content, chunk.metadata.section, chunk.metadata.page]),
    ).toEqual([
      ["History\n\nFounded in 1784.", "History", undefined],
      ["Transport\n\nTrams from 1891.", "Transport", undefined],
      ["Page two text.", undefined, 2],
    ]);
  });

  it("cuts a sentence longer than chunk_size at spaces, and unspaced text anywhere", () => {
    const long = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
    const chunks = chunkBlocks([{ text: long }], { chunk_size: 200, chunk_overlap: 0 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.content).toMatch(/^word\d+( word\d+)*$/);
      expect(chunk.content.length).toBeLessThanOrEqual(200);
    }
    const chinese = "澜".repeat(500);
    const cjk = chunkBlocks([{ text: chinese }], { chunk_size: 300, chunk_overlap: 30 });
    // 300 units hold 100 Han characters.
    expect(cjk[0]?.content.length).toBe(100);
    expect(cjk.at(-1)?.metadata.end).toBe(500);
  });

  it("weighs Han, kana, Hangul and Thai characters three times", () => {
    expect(weightedLength("abc")).toBe(3);
    expect(weightedLength("澜汀")).toBe(6);
    expect(weightedLength("カタ한ไ")).toBe(12);
  });

  it("is deterministic", () => {
    const blocks = [{ text: Array.from({ length: 30 }, (_, i) => sentence(i)).join(" ") }];
    const config = { chunk_size: 250, chunk_overlap: 80 };
    expect(chunkBlocks(blocks, config)).toEqual(chunkBlocks(blocks, config));
  });

  it("splits Chinese at sentence ends", () => {
    const text = "盐灯节是澜汀最重要的传统节日。".repeat(30);
    const chunks = chunkBlocks([{ text }], { chunk_size: 200, chunk_overlap: 50 });
    for (const chunk of chunks) expect(chunk.content.endsWith("。")).toBe(true);
  });
});
