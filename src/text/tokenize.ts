// Word tokens for lexical measures. ASCII text (most answers and hits) takes a hand-written scanner;
// other text a Unicode regex; only runs in scripts written without spaces (Han, kana, Hangul, Thai)
// pay for Intl.Segmenter, which is an order of magnitude slower.

import { ENGLISH_STOPWORDS, isStopword } from "./stopwords.js";

const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(locale: string): Intl.Segmenter {
  let segmenter = segmenters.get(locale);
  if (segmenter === undefined) {
    segmenter = new Intl.Segmenter(locale, { granularity: "word" });
    segmenters.set(locale, segmenter);
  }
  return segmenter;
}

/** The ICU dictionaries are chosen per script, but the locale breaks ties (kanji read as Japanese). */
function localeOf(run: string): string {
  for (let i = 0; i < run.length; i++) {
    const unit = run.charCodeAt(i);
    if (unit >= 0x0e00 && unit <= 0x0e7f) return "th";
    if ((unit >= 0xac00 && unit <= 0xd7af) || (unit >= 0x1100 && unit <= 0x11ff)) return "ko";
    if (unit >= 0x3040 && unit <= 0x30ff) return "ja";
  }
  return "zh";
}

/** True when the text contains Han, kana, Hangul or Thai, the scripts written without spaces. */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED_SCRIPT.test(text);
}

/** Words of text[from, to), through the Unicode path: NFKC, lower case, ICU for CJK runs. */
function forEachUnicodeWord(
  text: string,
  from: number,
  to: number,
  visit: (word: string) => void,
): void {
  const lower = text.slice(from, to).normalize("NFKC").toLowerCase();
  const unspaced = hasUnspacedScript(lower);
  // WORD_RUN is shared: keep this call's position locally, so a `visit` that tokenizes another
  // text (a nested call) cannot move it.
  let next = 0;
  for (;;) {
    WORD_RUN.lastIndex = next;
    const match = WORD_RUN.exec(lower);
    if (match === null) break;
    next = WORD_RUN.lastIndex;
    const run = match[0];
    if (unspaced && hasUnspacedScript(run)) {
      for (const part of segmenterFor(localeOf(run)).segment(run)) {
        if (part.isWordLike) visit(part.segment);
      }
    } else {
      visit(run);
    }
  }
}

/**
 * Calls `visit` with each lower-cased word of `text`, in order. ASCII is scanned by hand; at the
 * first non-ASCII character the rest of the text (from the word in progress) takes the Unicode path.
 */
export function forEachWord(text: string, visit: (word: string) => void): void {
  let start = -1;
  let upper = false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if ((unit >= 97 && unit <= 122) || (unit >= 48 && unit <= 57)) {
      if (start < 0) start = i;
    } else if (unit >= 65 && unit <= 90) {
      if (start < 0) start = i;
      upper = true;
    } else if (unit < 0x80) {
      if (start >= 0) {
        const word = text.slice(start, i);
        visit(upper ? word.toLowerCase() : word);
        start = -1;
        upper = false;
      }
    } else {
      forEachUnicodeWord(text, start >= 0 ? start : i, text.length, visit);
      return;
    }
  }
  if (start >= 0) {
    const word = text.slice(start);
    visit(upper ? word.toLowerCase() : word);
  }
}

/** Lower-cased words (letters, digits and combining marks), Han/kana/Hangul/Thai split by ICU. */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  forEachWord(text, (word) => words.push(word));
  return words;
}

function isDigits(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const unit = token.charCodeAt(i);
    if (unit < 48 || unit > 57) return false;
  }
  return true;
}

function isAsciiToken(token: string): boolean {
  for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Folds English plurals so "bridges" supports "bridge". Deliberately crude: both sides of every
 * comparison go through it, so consistency matters more than linguistic accuracy.
 */
export function stemToken(token: string): string {
  const ending = pluralEnding(token, 0, token.length, 0);
  if (ending === NOT_PLURAL || !isAsciiToken(token)) return token;
  if (ending === IES_TO_Y) return `${token.slice(0, -3)}y`;
  return token.slice(0, -ending);
}

// What stemToken does to a plural: drop its last one or two letters ("bridges", "boxes"), or
// turn "ies" into "y" ("cities").
const NOT_PLURAL = 0;
const DROP_ONE = 1;
const DROP_TWO = 2;
const IES_TO_Y = 3;

/** The unit `back` places before `end`, OR-ed with `fold`. */
function unitBefore(text: string, end: number, back: number, fold: number): number {
  return text.charCodeAt(end - back) | fold;
}

/**
 * The plural ending stemToken removes from the word text[start, end), its units compared after
 * OR-ing them with `fold` (0x20 reads ASCII capitals as lower case). By index, so the tokenizer
 * learns a word's stem before it cuts the word out of the text.
 */
function pluralEnding(text: string, start: number, end: number, fold: number): number {
  if (end - start <= 3 || unitBefore(text, end, 1, fold) !== 115 /* s */) return NOT_PLURAL;
  const before = unitBefore(text, end, 2, fold);
  // "ss", "us", "is": glass, bus, analysis are not plurals.
  if (before === 115 || before === 117 || before === 105) return NOT_PLURAL;
  if (before === 101 /* e */) {
    const third = unitBefore(text, end, 3, fold);
    const fourth = unitBefore(text, end, 4, fold);
    if (third === 105 /* i */ && end - start > 4) return IES_TO_Y;
    // "ches", "shes", "sses", "xes", "zes"
    if (third === 104 /* h */ && (fourth === 99 || fourth === 115)) return DROP_TWO;
    if (third === 115 && fourth === 115) return DROP_TWO;
    if (third === 120 || third === 122) return DROP_TWO;
  }
  return DROP_ONE;
}

/**
 * The form a word takes as a content token, or undefined when it carries no fact of its own:
 * stopwords, bare digits (numbers are judged by numeric_consistency) and single Latin letters.
 * For every token t it returns, contentForm(t) === t.
 */
export function contentForm(word: string): string | undefined {
  if (isStopword(word)) return undefined;
  const stem = stemToken(word);
  if (stem.length === 1 && stem.charCodeAt(0) < 0x80) return undefined;
  if (isDigits(stem)) return undefined;
  if (stem !== word && isStopword(stem)) return undefined;
  return stem;
}

// Stopwords are recognised in the ASCII scanner without cutting the word out of the text: a
// word whose (length, first letter, last letter) is no stopword's cannot be one, and a bitmap
// says so in one read. Most words of an answer are stopwords or digits, so this saves most of
// the allocation.
const MAX_STOPWORD_LENGTH = 15;
const SIGNATURES = (MAX_STOPWORD_LENGTH + 1) * 26 * 26;
const stopwordSignatures = new Uint8Array(SIGNATURES);
const NO_STOPWORDS: readonly string[] = [];
/** The stopwords of each signature (an array, not a Map: read for most words of every answer). */
const stopwordsBySignature: (readonly string[])[] = new Array(SIGNATURES).fill(NO_STOPWORDS);

/** Index of (length, first, last) for lower-case ASCII letters, or -1. */
function signature(length: number, first: number, last: number): number {
  if (length > MAX_STOPWORD_LENGTH || first < 97 || first > 122 || last < 97 || last > 122)
    return -1;
  return (length * 26 + (first - 97)) * 26 + (last - 97);
}

for (const word of ENGLISH_STOPWORDS) {
  const key = signature(word.length, word.charCodeAt(0), word.charCodeAt(word.length - 1));
  if (key < 0) continue;
  stopwordSignatures[key] = 1;
  stopwordsBySignature[key] = [...(stopwordsBySignature[key] ?? NO_STOPWORDS), word];
}

/** Whether text[start, end), lower-cased, is one of `words`. */
function spellsOneOf(text: string, start: number, end: number, words: readonly string[]): boolean {
  for (const word of words) {
    if (word.length !== end - start) continue;
    let i = 0;
    while (i < word.length && (text.charCodeAt(start + i) | 0x20) === word.charCodeAt(i)) i++;
    if (i === word.length) return true;
  }
  return false;
}

/** Whether the UTF-16 unit is an ASCII letter: OR-ing 0x20 lower-cases exactly those into a-z. */
function isAsciiLetterUnit(unit: number): boolean {
  const lower = unit | 0x20;
  return lower >= 97 && lower <= 122;
}

function isDigitUnit(unit: number): boolean {
  return unit >= 48 && unit <= 57;
}

/**
 * Appends the content tokens of text[from, to) to `out`, in order (see contentForm). A word at a
 * time: skip separators, then read the word; this loop is most of the cost of tokenizing an
 * answer, so each character costs a couple of comparisons.
 */
function collectContentTokens(
  text: string,
  out: { push(token: string): unknown },
  from: number,
  to: number,
): void {
  let i = from;
  while (i < to) {
    let unit = text.charCodeAt(i);
    if (unit < 0x80 && !isAsciiLetterUnit(unit) && !isDigitUnit(unit)) {
      i++;
      continue;
    }
    const start = i;
    let letters = false;
    let upper = false;
    for (;;) {
      if (isAsciiLetterUnit(unit)) {
        letters = true;
        if (unit <= 90) upper = true;
      } else if (!isDigitUnit(unit)) {
        break;
      }
      unit = ++i < to ? text.charCodeAt(i) : 32;
    }
    if (unit >= 0x80) {
      // The rest of the text, from the word in progress, takes the Unicode path.
      forEachUnicodeWord(text, start, to, (word) => {
        const form = contentForm(word);
        if (form !== undefined) out.push(form);
      });
      return;
    }
    if (letters && i - start > 1) {
      const token = asciiContentToken(text, start, i, upper);
      if (token !== undefined) out.push(token);
    }
  }
}

/** Whether text[start, end), lower-cased, is an English stopword. */
function isEnglishStopwordAt(text: string, start: number, end: number): boolean {
  const key = signature(
    end - start,
    text.charCodeAt(start) | 0x20,
    text.charCodeAt(end - 1) | 0x20,
  );
  return (
    key >= 0 &&
    stopwordSignatures[key] === 1 &&
    spellsOneOf(text, start, end, stopwordsBySignature[key] ?? NO_STOPWORDS)
  );
}

/**
 * The content token of the ASCII word text[start, end) of two or more characters, one a letter;
 * undefined for a stopword (see contentForm).
 */
function asciiContentToken(
  text: string,
  start: number,
  end: number,
  upper: boolean,
): string | undefined {
  if (isEnglishStopwordAt(text, start, end)) return undefined;
  // The stem is found by index and only it is cut out (stemToken, without the word's copy). An
  // ASCII stem can only be an English stopword, which the signature test answers.
  const ending = pluralEnding(text, start, end, 0x20);
  if (ending === NOT_PLURAL) return lowerCaseSlice(text, start, end, upper);
  if (ending === IES_TO_Y) {
    const stem = `${lowerCaseSlice(text, start, end - 3, upper)}y`;
    return isEnglishStopwordAt(stem, 0, stem.length) ? undefined : stem;
  }
  const stemEnd = end - ending;
  if (isEnglishStopwordAt(text, start, stemEnd) || isDigitsAt(text, start, stemEnd)) {
    return undefined;
  }
  return lowerCaseSlice(text, start, stemEnd, upper);
}

function lowerCaseSlice(text: string, start: number, end: number, upper: boolean): string {
  return upper ? text.slice(start, end).toLowerCase() : text.slice(start, end);
}

function isDigitsAt(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 48 || unit > 57) return false;
  }
  return true;
}

/** Calls `visit` with each content token of `text`, in order (see contentForm). */
export function forEachContentToken(text: string, visit: (token: string) => void): void {
  collectContentTokens(text, { push: visit }, 0, text.length);
}

/** Content tokens in order, repeats kept. */
export function contentTokens(text: string): string[] {
  return contentTokensIn(text, 0, text.length);
}

/**
 * contentTokens(text.slice(from, to)), read in place: the gate keeps an answer's sentences in
 * one string and reads each without copying it out.
 */
export function contentTokensIn(text: string, from: number, to: number): string[] {
  const tokens: string[] = [];
  collectContentTokens(text, tokens, from, to);
  return tokens;
}

/** Distinct content tokens: what a piece of evidence offers to support a sentence. */
export function contentTokenSet(text: string): Set<string> {
  return new Set(contentTokens(text));
}
