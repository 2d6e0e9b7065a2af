import { splitSentences } from "../../text/index.js";
import type { CollectionConfig } from "./config.js";
import type { DocumentBlock } from "./document.js";

// Chunking: sentences packed up to `chunk_size`, each chunk starting with up to `chunk_overlap`
// of the previous one's end, never across a section or page boundary. Every chunk is a slice of
// the document text (blocks joined by blank lines), so `start`/`end` locate it exactly.

/**
 * Length units: one per character, three per Han, kana, Hangul or Thai character, so that a chunk
 * holds about as much language in Chinese as in English (a Chinese word is ~1.5 characters, an
 * English one ~6 with its space).
 */
export const UNSPACED_CHARACTER_WEIGHT = 3;

export interface ChunkDraft {
  /** 0-based order within the document; the chunk id is `${document_id}#${position}`. */
  position: number;
  content: string;
  metadata: { start: number; end: number; section?: string; page?: number };
}

interface Unit {
  start: number;
  end: number;
}

function isUnspaced(unit: number): boolean {
  return (
    (unit >= 0x3040 && unit <= 0x30ff) || // kana
    (unit >= 0x3400 && unit <= 0x9fff) || // Han
    (unit >= 0xf900 && unit <= 0xfaff) ||
    (unit >= 0xac00 && unit <= 0xd7af) || // Hangul
    (unit >= 0x0e00 && unit <= 0x0e7f) // Thai
  );
}

/** Length of text[start, end) in length units. */
export function weightedLength(text: string, start = 0, end = text.length): number {
  let weight = 0;
  for (let i = start; i < end; i++) {
    weight += isUnspaced(text.charCodeAt(i)) ? UNSPACED_CHARACTER_WEIGHT : 1;
  }
  return weight;
}

/** The index in [start, end] at which text[start, index) weighs at most `budget`. */
function indexAfterWeight(text: string, start: number, end: number, budget: number): number {
  let weight = 0;
  let i = start;
  while (i < end) {
    const w = isUnspaced(text.charCodeAt(i)) ? UNSPACED_CHARACTER_WEIGHT : 1;
    if (weight + w > budget) break;
    weight += w;
    i++;
  }
  return i;
}

/** The index in [start, end] where the last `budget` units of text[start, end) begin. */
function indexBeforeWeight(text: string, start: number, end: number, budget: number): number {
  let weight = 0;
  let i = end;
  while (i > start) {
    const w = isUnspaced(text.charCodeAt(i - 1)) ? UNSPACED_CHARACTER_WEIGHT : 1;
    if (weight + w > budget) break;
    weight += w;
    i--;
  }
  return i;
}

function isSpace(unit: number): boolean {
  return unit === 32 || unit === 9 || unit === 10 || unit === 13 || unit === 0x3000;
}

/** Sentences of one block as units, sentences longer than `size` cut at spaces where possible. */
function blockUnits(text: string, from: number, to: number, size: number): Unit[] {
  const units: Unit[] = [];
  const block = text.slice(from, to);
  const sentences = splitSentences(block);
  const spans = sentences.length > 0 ? sentences : [{ start: 0, end: block.length }];
  for (const sentence of spans) {
    let start = from + sentence.start;
    const end = from + sentence.end;
    while (start < end) {
      let cut = indexAfterWeight(text, start, end, size);
      if (cut < end) {
        // Prefer the last space in the second half of the piece.
        let space = cut;
        while (space > start + (cut - start) / 2 && !isSpace(text.charCodeAt(space))) space--;
        if (space > start + (cut - start) / 2) cut = space;
        if (cut <= start) cut = start + 1;
      }
      units.push({ start, end: cut });
      start = cut;
      while (start < end && isSpace(text.charCodeAt(start))) start++;
    }
  }
  return units;
}

/**
 * Where the next chunk starts so that it repeats at most `overlap` units of the chunk that ends
 * with units[last]: whole trailing sentences when any fit, else the tail of the last sentence
 * from a word boundary. Never reaches back past units[first] (the chunk must move forward).
 */
function overlapStart(
  text: string,
  units: Unit[],
  first: number,
  last: number,
  overlap: number,
): number | undefined {
  if (overlap <= 0) return undefined;
  let start: number | undefined;
  let weight = 0;
  for (let k = last; k > first; k--) {
    const unit = units[k] as Unit;
    weight += weightedLength(text, unit.start, unit.end);
    if (weight > overlap) break;
    start = unit.start;
  }
  if (start !== undefined) return start;
  const tail = units[last] as Unit;
  let from = indexBeforeWeight(text, tail.start, tail.end, overlap);
  if (from >= tail.end) return undefined;
  // In spaced scripts, start at the next word rather than inside one.
  if (from > tail.start && !isSpace(text.charCodeAt(from - 1))) {
    let next = from;
    while (next < tail.end && !isSpace(text.charCodeAt(next))) next++;
    if (next < tail.end) from = next;
    else if (!isUnspaced(text.charCodeAt(from))) return undefined;
  }
  while (from < tail.end && isSpace(text.charCodeAt(from))) from++;
  return from < tail.end ? from : undefined;
}

/** Splits a document's blocks into chunks (see the comment at the top of this file). */
export function chunkBlocks(
  blocks: readonly DocumentBlock[],
  config: Pick<CollectionConfig, "chunk_size" | "chunk_overlap">,
): ChunkDraft[] {
  const text = blocks.map((block) => block.text).join("\n\n");
  const drafts: ChunkDraft[] = [];
  let offset = 0;
  let group: { units: Unit[]; section?: string; page?: number } | undefined;

  const emitGroup = () => {
    if (!group || group.units.length === 0) return;
    const { units } = group;
    let i = 0;
    let carried: number | undefined;
    while (i < units.length) {
      const start = carried ?? (units[i] as Unit).start;
      let weight =
        carried === undefined ? 0 : weightedLength(text, carried, (units[i] as Unit).start);
      let j = i;
      while (j < units.length) {
        const unit = units[j] as Unit;
        const next = weightedLength(text, unit.start, unit.end);
        if (j > i && weight + next > config.chunk_size) break;
        weight += next;
        j++;
      }
      const end = (units[j - 1] as Unit).end;
      const metadata: ChunkDraft["metadata"] = { start, end };
      if (group.section !== undefined) metadata.section = group.section;
      if (group.page !== undefined) metadata.page = group.page;
      drafts.push({ position: drafts.length, content: text.slice(start, end), metadata });
      if (j >= units.length) break;
      carried = overlapStart(text, units, i, j - 1, config.chunk_overlap);
      i = j;
    }
  };

  for (const block of blocks) {
    const sameGroup = group && group.section === block.section && group.page === block.page;
    if (!sameGroup) {
      emitGroup();
      group = { units: [] };
      if (block.section !== undefined) group.section = block.section;
      if (block.page !== undefined) group.page = block.page;
    }
    // A loop, not push(...units): a block of 300,000 one-letter sentences overflowed the stack.
    for (const unit of blockUnits(text, offset, offset + block.text.length, config.chunk_size)) {
      group?.units.push(unit);
    }
    offset += block.text.length + 2;
  }
  emitGroup();
  return drafts;
}
