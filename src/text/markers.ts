// Inline citation markers such as [1], [n1], [n1, n2], [1][2], 【1】 or [doc-slug#2]. They live in
// text/ because sentence splitting and number extraction must step around them; resolving a marker
// to evidence is the gate's business (gate/measures.ts).

import { isAscii } from "./normalize.js";

/** One bracketed marker; `refs` are its comma-separated references, trimmed, in order. */
export interface MarkerSpan {
  start: number;
  end: number;
  raw: string;
  refs: string[];
}

const BRACKETED = /[[［【]([^\]］】[［【\n]{1,300})[\]］】](?!\()/g;
const REF_SEPARATOR = /\s*[,，、;；]\s*/;
// A reference is identifier-like and contains a digit, which keeps "[TODO]", "[sic]" and
// "[see above]" from being read as citations.
const REF = /^[\p{L}\p{N}_.:#/-]{1,128}$/u;
const ASCII_REF = /^[A-Za-z0-9_.:#/-]{1,128}$/;
const HAS_DIGIT = /\p{Nd}/u;

function markerRefs(inner: string): string[] | undefined {
  const trimmed = inner.trim();
  // The common case, one plain reference such as "1" or "n12", needs no splitting.
  if (ASCII_REF.test(trimmed)) return hasAsciiDigit(trimmed) ? [trimmed] : undefined;
  const refs = trimmed.split(REF_SEPARATOR);
  for (const ref of refs) {
    if (!(ASCII_REF.test(ref) || REF.test(ref)) || !HAS_DIGIT.test(ref)) return undefined;
  }
  return refs;
}

/** HAS_DIGIT for an ASCII reference, without the Unicode regex. */
function hasAsciiDigit(ref: string): boolean {
  for (let i = 0; i < ref.length; i++) {
    const unit = ref.charCodeAt(i);
    if (unit >= 48 && unit <= 57) return true;
  }
  return false;
}

function mayContainMarker(text: string): boolean {
  return text.includes("[") || text.includes("【") || text.includes("［");
}

/** Every citation marker in `text`, in order of position. Markdown links `[x](url)` are not markers. */
export function findCitationMarkers(text: string): MarkerSpan[] {
  if (!mayContainMarker(text)) return [];
  return isAscii(text) ? findAsciiMarkers(text) : findMarkersByPattern(text);
}

/**
 * findCitationMarkers read with BRACKETED, the definition of a marker; for ASCII text
 * findAsciiMarkers reads the same markers faster, and the tests compare the two.
 */
export function findMarkersByPattern(text: string): MarkerSpan[] {
  const spans: MarkerSpan[] = [];
  BRACKETED.lastIndex = 0;
  for (let match = BRACKETED.exec(text); match !== null; match = BRACKETED.exec(text)) {
    const refs = markerRefs(match[1] ?? "");
    if (refs === undefined) continue;
    spans.push({ start: match.index, end: match.index + match[0].length, raw: match[0], refs });
  }
  return spans;
}

/**
 * findCitationMarkers for ASCII text, read by hand: BRACKETED would match at each "[" the first
 * "]" that follows within 301 characters with no bracket or line break between, unless a "("
 * comes next. The regex's match arrays were most of the cost of finding an answer's markers.
 */
function findAsciiMarkers(text: string): MarkerSpan[] {
  const spans: MarkerSpan[] = [];
  let open = text.indexOf("[");
  while (open >= 0) {
    const limit = Math.min(text.length, open + 302);
    let close = open + 1;
    while (close < limit && !isAsciiMarkerStop(text.charCodeAt(close))) close++;
    const matched =
      close < limit &&
      close > open + 1 &&
      text.charCodeAt(close) === 93 /* ] */ &&
      text.charCodeAt(close + 1) !== 40; /* ( */
    if (!matched) {
      open = text.indexOf("[", open + 1);
      continue;
    }
    const refs = markerRefs(text.slice(open + 1, close));
    if (refs !== undefined) {
      spans.push({ start: open, end: close + 1, raw: text.slice(open, close + 1), refs });
    }
    open = text.indexOf("[", close + 1);
  }
  return spans;
}

/** "[", "]" or a line break: what ends the inside of a marker in ASCII text. */
function isAsciiMarkerStop(unit: number): boolean {
  return unit === 91 || unit === 93 || unit === 10;
}

/** `text` with each marker replaced by spaces of the same length, so offsets stay valid. */
export function blankCitationMarkers(
  text: string,
  spans: readonly MarkerSpan[] = findCitationMarkers(text),
): string {
  if (spans.length === 0) return text;
  let out = "";
  let from = 0;
  for (const span of spans) {
    out += text.slice(from, span.start) + " ".repeat(span.end - span.start);
    from = span.end;
  }
  return out + text.slice(from);
}

/**
 * `text` without its markers and without the spaces that preceded each. `spans` may come from a
 * larger text in which `text` starts at `offset` (a sentence's markers, found in its answer).
 */
export function stripCitationMarkers(
  text: string,
  spans: readonly MarkerSpan[] = findCitationMarkers(text),
  offset = 0,
): string {
  if (spans.length === 0) return text;
  let out = "";
  let from = 0;
  for (const span of spans) {
    const start = span.start - offset;
    if (start < from || span.end - offset > text.length) continue;
    let end = start;
    while (end > from && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
    out += text.slice(from, end);
    from = span.end - offset;
  }
  return out + text.slice(from);
}
