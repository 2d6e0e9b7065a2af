import type { DocumentKind } from "../../store/index.js";

/** A paragraph-sized piece of a document, labelled with where it sits. */
export interface DocumentBlock {
  text: string;
  /** Heading path, e.g. "Getting around > Trams"; chunks never span two sections. */
  section?: string;
  /** 1-based page (PDF). */
  page?: number;
}

/** A document as the parsers hand it to the chunker: text in blocks, plus what we know about it. */
export interface ParsedDocument {
  /** File path (relative to the working directory when under it) or `file.jsonl#id`. */
  source: string;
  /** The user's own id of the document (a JSONL line's `id`); the source when absent. */
  external_id?: string;
  kind: DocumentKind;
  title: string;
  blocks: DocumentBlock[];
  metadata: Record<string, unknown>;
}

/** The document's text: its blocks separated by blank lines. */
export function documentText(doc: Pick<ParsedDocument, "blocks">): string {
  return doc.blocks.map((block) => block.text).join("\n\n");
}

/** Splits plain text into paragraphs at blank lines; single newlines stay inside a paragraph. */
export function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n+/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

const CJK_END =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}，。、；：！？）」』》]$/u;
const CJK_START =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}，。、；：！？（「『《]/u;

/** Joins wrapped lines into one line: with a space, except between two CJK characters. */
export function joinWrappedLines(text: string): string {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  // The test looks at the previous line, not at the text joined so far: testing a growing
  // string made V8 flatten it on every line (80,000 lines: 1.3 s).
  let out = "";
  let previous = "";
  for (const line of lines) {
    if (out.length === 0) out = line;
    else if (CJK_END.test(previous) && CJK_START.test(line)) out += line;
    else out += ` ${line}`;
    previous = line;
  }
  return out;
}
