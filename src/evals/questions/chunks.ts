import type { PromptLanguage } from "../../judges/index.js";

/** A collection's documents with their chunks in document order, as the store lists them. */
export interface DocumentChunks {
  document_id: string;
  chunks: readonly { id: string; content: string }[];
}

export interface PickedChunk {
  document_id: string;
  chunk_id: string;
  content: string;
}

/**
 * Up to `count` chunks taken round-robin: the first chunk of every document, then the second of
 * every document, and so on. Taking chunks in list order would draw a whole question set from the
 * first long document. Blank chunks are skipped.
 */
export function pickChunksRoundRobin(
  documents: readonly DocumentChunks[],
  count: number = Number.POSITIVE_INFINITY,
): PickedChunk[] {
  const picked: PickedChunk[] = [];
  const longest = Math.max(0, ...documents.map((d) => d.chunks.length));
  for (let depth = 0; depth < longest && picked.length < count; depth++) {
    for (const document of documents) {
      if (picked.length >= count) break;
      const chunk = document.chunks[depth];
      if (chunk === undefined || chunk.content.trim() === "") continue;
      picked.push({
        document_id: document.document_id,
        chunk_id: chunk.id,
        content: chunk.content,
      });
    }
  }
  return picked;
}

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const LATIN_WORD = /[A-Za-z]+/g;

/**
 * "zh" when the text is mostly Chinese: more Han characters than Latin words (a Chinese word is
 * one or two characters, so this weighs the two scripts roughly alike). A Chinese chunk quoting
 * an English name stays "zh"; an English chunk quoting one Chinese name stays "en".
 */
export function chunkLanguage(text: string): PromptLanguage {
  const cjk = text.match(CJK_CHAR)?.length ?? 0;
  const latin = text.match(LATIN_WORD)?.length ?? 0;
  return cjk > latin ? "zh" : "en";
}
