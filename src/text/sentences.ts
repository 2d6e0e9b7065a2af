// Sentence splitting for claim-level checks. Citation markers stay with the sentence they follow,
// whether written before the full stop ("built in 1869 [2].") or after it ("built in 1869. [2]").

import { findCitationMarkers, type MarkerSpan } from "./markers.js";
import { isAscii } from "./normalize.js";

export interface Sentence {
  /** The sentence as written, trimmed, markers included. */
  text: string;
  start: number;
  end: number;
  /** The markers inside or directly after the sentence. */
  markers: MarkerSpan[];
}

/** Words followed by a full stop that rarely end a sentence; compared lower-cased, without dots. */
const ABBREVIATIONS = new Set(
  (
    "mr mrs ms dr prof st sr jr vs fig figs approx inc ltd co corp eg ie cf al vol pp ca " +
    "est dept univ gen gov mt ft ave blvd jan feb mar apr jun jul aug sep sept oct nov dec"
  ).split(" "),
);

// Sets of UTF-16 units, not of one-character strings: the splitter asks at every candidate end.
const CLOSERS = new Set([..."\"')”’」』）》〉"].map((ch) => ch.charCodeAt(0)));
const LATIN_TERMINATORS = new Set([..."?!."].map((ch) => ch.charCodeAt(0)));
const CJK_TERMINATOR_CHARS = ["。", "！", "？", "；", "｡"];
const CJK_TERMINATORS = new Set(CJK_TERMINATOR_CHARS.map((ch) => ch.charCodeAt(0)));

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "0" && ch <= "9";
}

const LETTER = /\p{L}/u;
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;

function isLetter(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const unit = ch.charCodeAt(0);
  if (unit < 0x80) return (unit >= 97 && unit <= 122) || (unit >= 65 && unit <= 90);
  return LETTER.test(ch);
}

function isLower(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const unit = ch.charCodeAt(0);
  if (unit < 0x80) return unit >= 97 && unit <= 122;
  return LOWER.test(ch);
}

/** The word (letters and inner dots, as in "e.g") that ends just before `dot`. */
function wordBefore(text: string, dot: number): string {
  let i = dot;
  while (i > 0) {
    const ch = text[i - 1];
    if (ch === "." || isLetter(ch)) i--;
    else break;
  }
  return text.slice(i, dot);
}

/** "1." or "12." alone at the start of a line numbers a list item; it ends nothing. */
function isListEnumerator(text: string, dot: number): boolean {
  let i = dot;
  while (i > 0 && isDigit(text[i - 1])) i--;
  if (i === dot || dot - i > 3) return false;
  while (i > 0 && (text[i - 1] === " " || text[i - 1] === "\t")) i--;
  return i === 0 || text[i - 1] === "\n";
}

/** Whether the single "." at `dot` is part of a number, an abbreviation or a domain name. */
function isNonTerminalDot(text: string, dot: number): boolean {
  const next = text[dot + 1];
  if (isDigit(text[dot - 1]) && isDigit(next)) return true;
  if (isListEnumerator(text, dot)) return true;
  // "e.g", "U.S", "example.com": a dot followed directly by a letter.
  if (isLetter(next)) return true;
  const word = wordBefore(text, dot);
  if (word.length === 0) return false;
  const bare = word.replaceAll(".", "").toLowerCase();
  if (ABBREVIATIONS.has(bare) || word.includes(".")) return true;
  // "No. 5" abbreviates "number"; "No. The bridge…" is an answer.
  if (bare === "no" || bare === "nos") {
    let k = dot + 1;
    while (text[k] === " ") k++;
    return isDigit(text[k]);
  }
  // A single capital is an initial ("J. Smith").
  if (word.length === 1 && UPPER.test(word)) return true;
  // "approx. three": a lower-case continuation means the sentence has not ended.
  let j = dot + 1;
  while (text[j] === " ") j++;
  return isLower(text[j]);
}

function isSpace(unit: number): boolean {
  return unit === 32 || (unit >= 9 && unit <= 13) || unit === 0xa0 || unit === 0x3000;
}

function pushSentence(
  sentences: Sentence[],
  text: string,
  from: number,
  to: number,
  markers: readonly MarkerSpan[],
): void {
  let s = from;
  let e = to;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  if (e === s) return;
  const own: MarkerSpan[] = [];
  for (let m = firstMarkerFrom(markers, 0, s); m < markers.length; m++) {
    const marker = markers[m] as MarkerSpan;
    if (marker.start >= e) break;
    if (marker.end <= e) own.push(marker);
  }
  sentences.push({ text: text.slice(s, e), start: s, end: e, markers: own });
}

/** Index of the first marker starting at or after `pos`, searching from `from`. */
function firstMarkerFrom(markers: readonly MarkerSpan[], from: number, pos: number): number {
  let m = from;
  while (m < markers.length && (markers[m] as MarkerSpan).start < pos) m++;
  return m;
}

/** Past closing quotes and brackets from `from`. */
function skipClosers(text: string, from: number): number {
  let i = from;
  while (i < text.length && CLOSERS.has(text.charCodeAt(i))) i++;
  return i;
}

/** Past the markers that follow `from`, separated by spaces or tabs only. */
function skipMarkers(
  text: string,
  from: number,
  markers: readonly MarkerSpan[],
  m: number,
): number {
  let i = from;
  for (let next = firstMarkerFrom(markers, m, i); next < markers.length; next++) {
    let j = i;
    while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9) j++;
    const marker = markers[next] as MarkerSpan;
    if (marker.start !== j) break;
    i = marker.end;
  }
  return i;
}

/** Finds the next character that may end a sentence with native substring searches. */
class TerminatorFinder {
  private readonly chars: readonly string[];
  private readonly next: number[];

  constructor(private readonly text: string) {
    this.chars = isAscii(text) ? ASCII_CANDIDATES : ALL_CANDIDATES;
    this.next = this.chars.map(() => -2);
  }

  /** Position of the first candidate at or after `from`, or -1. */
  find(from: number): number {
    let best = -1;
    for (let k = 0; k < this.chars.length; k++) {
      let at = this.next[k] as number;
      if (at !== -1 && at < from) {
        at = this.text.indexOf(this.chars[k] as string, from);
        this.next[k] = at;
      }
      if (at >= 0 && (best < 0 || at < best)) best = at;
    }
    return best;
  }
}

const ASCII_CANDIDATES = ["\n", ".", "?", "!"];
const ALL_CANDIDATES = [...ASCII_CANDIDATES, ...CJK_TERMINATOR_CHARS];

/**
 * Splits `text` into sentences at `.?!` (not in decimals, abbreviations, list numbers or domain
 * names), at Chinese and Japanese `。！？；`, and at line breaks. Closing quotes and the citation
 * markers that follow a terminator belong to the sentence it ends. `markers` are the text's
 * citation markers when the caller already has them.
 */
export function splitSentences(
  text: string,
  markers: readonly MarkerSpan[] = findCitationMarkers(text),
): Sentence[] {
  const sentences: Sentence[] = [];
  const finder = new TerminatorFinder(text);
  const n = text.length;
  let start = 0;
  let m = 0;
  let i = 0;
  while (i < n) {
    const at = finder.find(i);
    if (at < 0) break;
    // Terminators inside a marker such as [doc.v2#1] are not sentence ends.
    while (m < markers.length && (markers[m] as MarkerSpan).end <= at) m++;
    const inside = markers[m];
    if (inside !== undefined && inside.start <= at) {
      i = inside.end;
      continue;
    }
    const unit = text.charCodeAt(at);
    if (unit === 10) {
      pushSentence(sentences, text, start, at, markers);
      start = at + 1;
      i = at + 1;
      continue;
    }
    let j = at + 1;
    let end = -1;
    if (CJK_TERMINATORS.has(unit)) {
      while (
        j < n &&
        (CJK_TERMINATORS.has(text.charCodeAt(j)) || LATIN_TERMINATORS.has(text.charCodeAt(j)))
      )
        j++;
      end = skipMarkers(text, skipClosers(text, j), markers, m);
    } else {
      while (j < n && LATIN_TERMINATORS.has(text.charCodeAt(j))) j++;
      if (!(unit === 46 /* . */ && j === at + 1 && isNonTerminalDot(text, at))) {
        const closed = skipClosers(text, j);
        const candidate = skipMarkers(text, closed, markers, m);
        const after = text.charCodeAt(candidate);
        // An English full stop ends a sentence before a space, the end, a marker or CJK text.
        if (candidate >= n || isSpace(after) || candidate > closed || CJK_TERMINATORS.has(after)) {
          end = candidate;
        }
      }
    }
    if (end < 0) {
      i = j;
      continue;
    }
    pushSentence(sentences, text, start, end, markers);
    start = end;
    i = end;
  }
  pushSentence(sentences, text, start, n, markers);
  return sentences;
}
