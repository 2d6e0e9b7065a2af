// Seed 004 §5.1 `normalize_text`: compare and measure text by meaning, not by encoding accidents.

import { Buffer } from "node:buffer";

// Only what differs from a single space: replacing every space would cost more than the rest.
const FOLDABLE_WHITESPACE = /\s{2,}|[^\S ]/g;

/**
 * True when every UTF-16 unit is ASCII, so NFKC and CJK handling can be skipped. Byte length
 * equals length only for ASCII; V8 answers it natively, some fifteen times faster than a regex.
 * A short text (a marker's reference, a word) is cheaper to read than to hand to the native call.
 */
export function isAscii(text: string): boolean {
  if (text.length > 16) return Buffer.byteLength(text, "utf8") === text.length;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** NFKC (full-width letters and digits become ASCII), whitespace collapsed to single spaces, trimmed. */
export function normalizeText(text: string): string {
  const folded = isAscii(text) ? text : text.normalize("NFKC");
  return folded.replace(FOLDABLE_WHITESPACE, " ").trim();
}

/** Length in Unicode code points, so an emoji or a rare Han character counts as one character. */
export function codePointLength(text: string): number {
  if (isAscii(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
