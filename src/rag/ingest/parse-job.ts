import type { DocumentKind } from "../../store/index.js";
import type { CollectionConfig } from "./config.js";
import { parseJsonlDocuments } from "./jsonl.js";
import { formatBytes } from "./limits.js";
import { parseBytes } from "./parse.js";
import { DecodedBytesLimitError, pdfDecodedBytes } from "./pdf-streams.js";
import { type PreparedDocument, prepareDocument } from "./prepare.js";

// One file read into prepared documents: what the parse thread runs (parse-host.ts), a plain
// function so it can be tested on its own.

export interface ParseJob {
  bytes: Uint8Array;
  /** What the documents record as their origin, and what a problem names. */
  source: string;
  kind: DocumentKind;
  /** The title of a document that names none. */
  fallbackTitle: string;
  chunking: CollectionConfig;
  /** Bytes this PDF's streams may decode to, and which limit that is (for the message). */
  decodedBytes: { limit: number; of: string };
}

export type ParsedItem =
  { ok: true; document: PreparedDocument } | { ok: false; line?: number; message: string };

export interface ParseOutcome {
  items: ParsedItem[];
  /** What a PDF's streams decoded to, or its limit when refused (0 for other formats). */
  decodedBytes: number;
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

export async function runParseJob(job: ParseJob): Promise<ParseOutcome> {
  const { bytes, source, kind, fallbackTitle, chunking } = job;
  if (kind === "jsonl") {
    const items: ParsedItem[] = [];
    for await (const line of parseJsonlDocuments(once(bytes), source, fallbackTitle)) {
      items.push(
        line.ok
          ? { ok: true, document: prepareDocument(line.document, chunking) }
          : { ok: false, line: line.line, message: line.error },
      );
    }
    return { items, decodedBytes: 0 };
  }
  let decodedBytes = 0;
  try {
    if (kind === "pdf") decodedBytes = await pdfDecodedBytes(bytes, job.decodedBytes.limit);
    const document = await parseBytes(bytes, source, kind, fallbackTitle);
    // A document without text comes back without chunks: ingest reports it, as for any caller.
    return { items: [{ ok: true, document: prepareDocument(document, chunking) }], decodedBytes };
  } catch (error) {
    // A refused file still cost its limit in decoding: it counts against the request's budget.
    if (DecodedBytesLimitError.isInstance(error)) decodedBytes = error.limit;
    const message = DecodedBytesLimitError.isInstance(error)
      ? `${source}: its compressed streams decode to more than ${formatBytes(error.limit)} (${job.decodedBytes.of})`
      : (error as Error).message;
    return { items: [{ ok: false, message }], decodedBytes };
  }
}
