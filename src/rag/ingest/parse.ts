import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { DocumentKind } from "../../store/index.js";
import type { CollectionConfig } from "./config.js";
import type { ParsedDocument } from "./document.js";
import { parseHtml } from "./html.js";
import { parseJsonlDocuments } from "./jsonl.js";
import { parseMarkdown } from "./markdown.js";
import { PARSE_LIMITS } from "./limits.js";
import { parseOffThread } from "./parse-thread.js";
import { parsePdf } from "./pdf.js";
import type { PreparedDocument } from "./prepare.js";
import { parsePlainText } from "./text.js";

/** File extensions ingest reads, by format. */
export const EXTENSION_KINDS: Readonly<Record<string, DocumentKind>> = {
  ".md": "markdown",
  ".markdown": "markdown",
  ".txt": "text",
  ".text": "text",
  ".html": "html",
  ".htm": "html",
  ".pdf": "pdf",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
};

export function kindOfPath(path: string): DocumentKind | undefined {
  return EXTENSION_KINDS[extname(path).toLowerCase()];
}

/** A file or a JSONL line that could not be read; ingest reports it and goes on. */
export interface IngestProblem {
  source: string;
  line?: number;
  message: string;
}

export type ParsedFileItem =
  { ok: true; document: ParsedDocument | PreparedDocument } | ({ ok: false } & IngestProblem);

/** The title a document gets when it names none: its file name without the extension. */
export function titleFromPath(path: string): string {
  const name = basename(path);
  const ext = extname(name);
  return ext.length > 0 && ext.length < name.length ? name.slice(0, -ext.length) : name;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Uint8Array, source: string): string {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw new Error(`${source}: not valid UTF-8 (expected a UTF-8 text file)`);
  }
  refuseNul(text, source);
  return text;
}

/** PostgreSQL text cannot hold NUL; a text file holding one is refused whole, by name. */
function refuseNul(text: string, source: string): void {
  const at = text.indexOf("\u0000");
  if (at >= 0) {
    throw new Error(
      `${source}: contains a NUL character (\\u0000) at character ${at}, which cannot be stored (expected a text file)`,
    );
  }
}

/**
 * Parses one file into documents (one, or one per JSONL line). `path` is read; `source` is what
 * the documents record as their origin. A whole file is read and chunked on the parse thread
 * (parse-thread.ts), within its limits; JSONL is streamed line by line here, as a corpus file may
 * be larger than memory (a line is read by the strict JSON reader, linear in its length).
 */
export async function* parseFile(
  path: string,
  source: string,
  kind: DocumentKind,
  chunking: CollectionConfig,
): AsyncGenerator<ParsedFileItem> {
  const fallbackTitle = titleFromPath(path);
  if (kind === "jsonl") {
    for await (const entry of parseJsonlDocuments(createReadStream(path), source, fallbackTitle)) {
      yield entry.ok
        ? { ok: true, document: entry.document }
        : { ok: false, source, line: entry.line, message: entry.error };
    }
    return;
  }
  try {
    const bytes = await readFile(path);
    const outcome = await parseOffThread({
      bytes,
      source,
      kind,
      fallbackTitle,
      chunking,
      decodedBytes: { limit: PARSE_LIMITS.decodedBytesPerDocument, of: "the limit per document" },
    });
    for (const item of outcome.items) {
      yield item.ok ? item : { ok: false, source, message: item.message };
    }
  } catch (error) {
    yield { ok: false, source, message: (error as Error).message };
  }
}

/** Parses a whole file's bytes (any kind but jsonl, which is read line by line). */
export async function parseBytes(
  bytes: Uint8Array,
  source: string,
  kind: Exclude<DocumentKind, "jsonl">,
  fallbackTitle: string,
): Promise<ParsedDocument> {
  switch (kind) {
    case "pdf": {
      const pdf = await parsePdf(bytes).catch((error: Error) => {
        throw new Error(`not a readable PDF: ${error.message}`);
      });
      for (const block of pdf.blocks) refuseNul(block.text, source);
      return {
        source,
        kind,
        title: pdf.title ?? fallbackTitle,
        blocks: pdf.blocks,
        metadata: pdf.metadata,
      };
    }
    case "html": {
      const html = parseHtml(decodeUtf8(bytes, source));
      return {
        source,
        kind,
        title: html.title ?? fallbackTitle,
        blocks: html.blocks,
        metadata: html.metadata,
      };
    }
    case "markdown": {
      const markdown = parseMarkdown(decodeUtf8(bytes, source));
      return {
        source,
        kind,
        title: markdown.title ?? fallbackTitle,
        blocks: markdown.blocks,
        metadata: markdown.metadata,
      };
    }
    case "text":
      return {
        source,
        kind,
        title: fallbackTitle,
        blocks: parsePlainText(decodeUtf8(bytes, source)).blocks,
        metadata: {},
      };
  }
}
