import { createHash } from "node:crypto";
import { canonicalJson } from "../../text/index.js";
import { retrievalTokens } from "../retrieval/tokens.js";
import { chunkBlocks } from "./chunk.js";
import type { CollectionConfig } from "./config.js";
import { documentText, type ParsedDocument } from "./document.js";

// A document made ready to write: its content hash, its chunks and their search tokens. This is
// the CPU-heavy half of ingest (tokens of 1 MB of Chinese took 6 s), so uploads do it on the
// parse thread with the parsing (parse-thread.ts); only ids and the writes stay on the caller's.

export interface PreparedChunk {
  /** 0-based order within the document; the chunk id is `${document_id}#${position}`. */
  position: number;
  content: string;
  /** What lexical retrieval indexes (title, section and content). */
  tokens: string;
  metadata: { start: number; end: number; section?: string; page?: number };
}

export interface PreparedDocument extends Omit<ParsedDocument, "blocks"> {
  hash: string;
  char_count: number;
  /** The chunking it was cut with: a collection's, fixed at its creation. */
  chunking: CollectionConfig;
  chunks: PreparedChunk[];
}

/** sha256 of the title, text and metadata: what "unchanged content" means. */
export function contentHash(doc: Pick<ParsedDocument, "title" | "blocks" | "metadata">): string {
  return createHash("sha256")
    .update(canonicalJson({ title: doc.title, text: documentText(doc), metadata: doc.metadata }))
    .digest("hex");
}

export function prepareDocument(doc: ParsedDocument, chunking: CollectionConfig): PreparedDocument {
  const { blocks, ...rest } = doc;
  return {
    ...rest,
    hash: contentHash(doc),
    char_count: documentText(doc).length,
    chunking: { chunk_size: chunking.chunk_size, chunk_overlap: chunking.chunk_overlap },
    chunks: chunkBlocks(blocks, chunking).map((draft) => ({
      position: draft.position,
      content: draft.content,
      // The title and section are indexed with every chunk: "when did the trams stop" should
      // find a chunk of "Getting around Lanting" that never says "Lanting" itself.
      tokens: retrievalTokens(
        `${doc.title}\n${draft.metadata.section ?? ""}\n${draft.content}`,
      ).join(" "),
      metadata: draft.metadata,
    })),
  };
}

export function isPrepared(doc: ParsedDocument | PreparedDocument): doc is PreparedDocument {
  return "chunks" in doc;
}

/** Whether a document has any text to index. */
export function hasText(doc: Pick<ParsedDocument, "blocks">): boolean {
  return doc.blocks.some((block) => block.text.trim().length > 0);
}
