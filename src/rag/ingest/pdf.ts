import { extractText, getDocumentProxy } from "unpdf";
import { type DocumentBlock, joinWrappedLines, paragraphs } from "./document.js";

export interface ParsedPdf {
  /** The document information's Title, when set. */
  title: string | undefined;
  /** Paragraphs labelled with their 1-based page. */
  blocks: DocumentBlock[];
  metadata: { pages: number; author?: string };
}

/** Extracts text page by page with PDF.js (through unpdf); no OCR, so scans yield no text. */
export async function parsePdf(bytes: Uint8Array): Promise<ParsedPdf> {
  // PDF.js may transfer the buffer it is given: hand it a copy. Files are untrusted: no eval.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    verbosity: 0,
    isEvalSupported: false,
  });
  try {
    const { text, totalPages } = await extractText(pdf, { mergePages: false });
    const info = await pdf
      .getMetadata()
      .then((meta) => meta.info as Record<string, unknown>)
      .catch(() => ({}) as Record<string, unknown>);
    const blocks: DocumentBlock[] = [];
    text.forEach((pageText, index) => {
      for (const paragraph of paragraphs(pageText)) {
        const joined = joinWrappedLines(paragraph);
        if (joined.length > 0) blocks.push({ text: joined, page: index + 1 });
      }
    });
    const title =
      typeof info.Title === "string" && info.Title.trim() ? info.Title.trim() : undefined;
    const author =
      typeof info.Author === "string" && info.Author.trim() ? info.Author.trim() : undefined;
    return { title, blocks, metadata: { pages: totalPages, ...(author ? { author } : {}) } };
  } finally {
    await pdf.destroy();
  }
}
