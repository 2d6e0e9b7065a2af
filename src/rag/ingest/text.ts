import type { DocumentBlock } from "./document.js";
import { paragraphs } from "./document.js";

/** Plain text: paragraphs at blank lines; no title of its own. */
export function parsePlainText(text: string): { blocks: DocumentBlock[] } {
  return {
    blocks: paragraphs(text.replace(/^\uFEFF/, "")).map((paragraph) => ({ text: paragraph })),
  };
}
