// Numbers and dates as comparable values: "1,200" and "1200" are one fact, as are "3.50" and
// "3.5", "12.5 percent" and "12.5%", "March 5, 2021" and "2021-03-05" and "2021年3月5日".

import { blankCitationMarkers } from "./markers.js";
import { isAscii } from "./normalize.js";
import type { TextMarks } from "./tokenize.js";

export type NumberKind = "number" | "percent" | "date" | "year";

export interface NumberMention {
  /** As written (after NFKC, so full-width digits read as ASCII). */
  raw: string;
  /** Canonical form: "1200", "3.5", "12.5%", "2021-03-05", "2021-03", "03-05", "911". */
  value: string;
  kind: NumberKind;
  /** Offsets in the NFKC form of the text (the same as the input's for ASCII text). */
  index: number;
  end: number;
}

const MONTHS: Record<string, number> = {
  Jan: 1,
  Feb: 2,
  Mar: 3,
  Apr: 4,
  May: 5,
  Jun: 6,
  Jul: 7,
  Aug: 8,
  Sep: 9,
  Oct: 10,
  Nov: 11,
  Dec: 12,
};
const MONTH =
  "(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
const MAY_HOLD_MONTH = /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/;

// Month names are capitalised on purpose: "may" and "march" are also ordinary words.
const MONTH_FIRST = new RegExp(
  `\\b${MONTH}\\.?\\s+(?:(\\d{1,2})(?:st|nd|rd|th)?(?!\\d)(?:,?\\s+(\\d{4})(?!\\d))?|(\\d{4})(?!\\d))`,
  "g",
);

// Alternatives, in priority order: ISO-like date; CJK date (年[月[日]]); CJK month-day; day-month
// English date; plain number with optional multiplier or percent sign.
// No lookbehind here: a regex that starts with \d lets V8 skip to the next digit natively, and the
// "not inside an identifier or a longer number" test is done in code (digitsMayStartAt).
const DIGIT_FIRST = new RegExp(
  [
    "(?:",
    "(\\d{4})[-/.](\\d{1,2})[-/.](\\d{1,2})(?!\\d)",
    "|(\\d{1,4})\\s*年(?:\\s*(\\d{1,2})\\s*月(?:\\s*(\\d{1,2})\\s*[日号])?)?",
    "|(\\d{1,2})\\s*月\\s*(\\d{1,2})\\s*[日号]",
    `|(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\b\\.?(?:,?\\s+(\\d{4})(?!\\d))?`,
    "|(\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.(\\d+))?(?:\\s*(%|percent\\b|per cent\\b)|\\s*(万|亿|thousand\\b|million\\b|billion\\b|trillion\\b))?",
    ")",
  ].join(""),
  "g",
);

const MULTIPLIER_EXPONENT: Record<string, number> = {
  万: 4,
  亿: 8,
  thousand: 3,
  million: 6,
  billion: 9,
  trillion: 12,
};

// "1. First step": an enumerator at the start of a line is layout, not a claim.
const LIST_ENUMERATOR = /^\d{1,3}[.)](?:[ \t]|$)/;

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function stripLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  return i === 0 ? digits : digits.slice(i);
}

/** Canonical decimal: no separators, no leading or trailing zeros, decimal point shifted by `exponent`. */
export function canonicalDecimal(integer: string, fraction = "", exponent = 0): string {
  if (fraction === "" && exponent === 0 && integer.charCodeAt(0) !== 48 && !integer.includes(",")) {
    return integer;
  }
  let int = integer.includes(",") ? integer.replaceAll(",", "") : integer;
  let frac = fraction;
  if (exponent > 0) {
    const moved = frac.slice(0, exponent).padEnd(exponent, "0");
    int += moved;
    frac = frac.slice(exponent);
  }
  int = stripLeadingZeros(int);
  let fracEnd = frac.length;
  while (fracEnd > 0 && frac.charCodeAt(fracEnd - 1) === 48) fracEnd--;
  frac = frac.slice(0, fracEnd);
  return frac === "" ? int : `${int}.${frac}`;
}

function dateValue(year: number, month: number, day?: number): string | undefined {
  if (month < 1 || month > 12) return undefined;
  if (day !== undefined && (day < 1 || day > 31)) return undefined;
  const ym = `${year}-${pad2(month)}`;
  return day === undefined ? ym : `${ym}-${pad2(day)}`;
}

function monthNumber(name: string): number {
  return MONTHS[name.slice(0, 3)] ?? 0;
}

/** Whether the digit at `index` numbers a list item; the text is text[from, to). */
function isListEnumerator(text: string, index: number, from = 0, to = text.length): boolean {
  for (let i = index - 1; i >= from; i--) {
    const unit = text.charCodeAt(i);
    if (unit === 10) break;
    if (unit !== 32 && unit !== 9) return false;
  }
  return LIST_ENUMERATOR.test(text.slice(index, Math.min(index + 6, to)));
}

function monthFirstMentions(text: string): NumberMention[] {
  if (!MAY_HOLD_MONTH.test(text)) return [];
  const mentions: NumberMention[] = [];
  MONTH_FIRST.lastIndex = 0;
  for (let m = MONTH_FIRST.exec(text); m !== null; m = MONTH_FIRST.exec(text)) {
    const month = monthNumber(m[1] ?? "");
    const [day, year, yearOnly] = [m[2], m[3], m[4]];
    let value: string | undefined;
    if (yearOnly !== undefined) value = dateValue(Number(yearOnly), month);
    else if (year !== undefined) value = dateValue(Number(year), month, Number(day));
    else if (day !== undefined && Number(day) >= 1 && Number(day) <= 31)
      value = `${pad2(month)}-${pad2(Number(day))}`;
    if (value !== undefined) {
      mentions.push({ raw: m[0], value, kind: "date", index: m.index, end: m.index + m[0].length });
    }
  }
  return mentions;
}

/** Reads one DIGIT_FIRST match; several mentions when a date-looking match is not a valid date. */
function digitFirstMentions(m: RegExpExecArray): NumberMention[] {
  const raw = m[0];
  const index = m.index;
  const end = index + raw.length;
  const g = m;
  if (g[1] !== undefined) {
    const value = dateValue(Number(g[1]), Number(g[2]), Number(g[3]));
    if (value !== undefined) return [{ raw, value, kind: "date", index, end }];
    return [g[1], g[2], g[3]].map((part) => ({
      raw: part ?? "",
      value: stripLeadingZeros(part ?? ""),
      kind: "number" as const,
      index,
      end,
    }));
  }
  if (g[4] !== undefined) {
    const year = Number(g[4]);
    if (g[5] === undefined) return [{ raw, value: String(year), kind: "year", index, end }];
    const value = dateValue(year, Number(g[5]), g[6] === undefined ? undefined : Number(g[6]));
    if (value !== undefined) return [{ raw, value, kind: "date", index, end }];
    return [{ raw, value: String(year), kind: "year", index, end }];
  }
  if (g[7] !== undefined) {
    const [month, day] = [Number(g[7]), Number(g[8])];
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31)
      return [{ raw, value: `${pad2(month)}-${pad2(day)}`, kind: "date", index, end }];
    return [{ raw, value: String(month), kind: "number", index, end }];
  }
  if (g[9] !== undefined) {
    const [day, month] = [Number(g[9]), monthNumber(g[10] ?? "")];
    if (day < 1 || day > 31) return [{ raw, value: String(day), kind: "number", index, end }];
    const value =
      g[11] === undefined ? `${pad2(month)}-${pad2(day)}` : dateValue(Number(g[11]), month, day);
    return [{ raw, value: value ?? String(day), kind: "date", index, end }];
  }
  const [integer, fraction, percent, multiplier] = [g[12] ?? "0", g[13], g[14], g[15]];
  if (percent !== undefined) {
    return [{ raw, value: `${canonicalDecimal(integer, fraction)}%`, kind: "percent", index, end }];
  }
  const exponent = multiplier === undefined ? 0 : (MULTIPLIER_EXPONENT[multiplier] ?? 0);
  return [
    { raw, value: canonicalDecimal(integer, fraction, exponent), kind: "number", index, end },
  ];
}

/** Whether a number may start at `index`: not inside an identifier (A380) or a longer number. */
function digitsMayStartAt(text: string, index: number, from = 0): boolean {
  if (index === from) return true;
  const before = text.charCodeAt(index - 1);
  if (
    (before >= 48 && before <= 57) ||
    (before >= 65 && before <= 90) ||
    (before >= 97 && before <= 122)
  ) {
    return false;
  }
  if (before === 46 || before === 44) {
    const twoBefore = index - 2 >= from ? text.charCodeAt(index - 2) : -1;
    return !(twoBefore >= 48 && twoBefore <= 57);
  }
  return true;
}

// The grammar's plain-number alternative, /(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/, read by hand
// (plainNumberEnd): where nothing after it could extend the match (see endsPlainNumber), it is
// the whole story and the big regex need not run. By hand, because a sticky regex allocates
// nothing but still costs several times more than these few comparisons.
const EXTENDING_WORDS: readonly string[] = [
  "percent",
  "per",
  "thousand",
  "million",
  "billion",
  "trillion",
  "st",
  "nd",
  "rd",
  "th",
];
const MONTH_PREFIXES: readonly string[] = Object.keys(MONTHS);
/** Tables indexed by ASCII unit: the first letters of EXTENDING_WORDS and of month prefixes. */
const IS_EXTENDING_INITIAL = new Uint8Array(128);
for (const word of EXTENDING_WORDS) IS_EXTENDING_INITIAL[word.charCodeAt(0)] = 1;
const IS_MONTH_INITIAL = new Uint8Array(128);
for (const month of MONTH_PREFIXES) IS_MONTH_INITIAL[month.charCodeAt(0)] = 1;

function isSpaceUnit(unit: number): boolean {
  return unit === 32 || (unit >= 9 && unit <= 13) || unit === 0xa0 || unit === 0x3000;
}

function isAsciiLetterUnit(unit: number): boolean {
  return (unit >= 97 && unit <= 122) || (unit >= 65 && unit <= 90);
}

/**
 * Whether text[k, k + 3) is a month's capitalised prefix ("Jan" ... "Dec"), as the month-name
 * regexes spell it. Compares char codes: it runs for every capital letter near a number.
 */
function isMonthPrefixAt(text: string, k: number): boolean {
  if (k < 0 || k + 3 > text.length) return false;
  const first = text.charCodeAt(k);
  if (first >= 128 || IS_MONTH_INITIAL[first] !== 1) return false;
  const second = text.charCodeAt(k + 1);
  const third = text.charCodeAt(k + 2);
  for (const month of MONTH_PREFIXES) {
    if (
      month.charCodeAt(0) === first &&
      month.charCodeAt(1) === second &&
      month.charCodeAt(2) === third
    ) {
      return true;
    }
  }
  return false;
}

/** Whether text[start, end) is one of EXTENDING_WORDS, ignoring ASCII case. */
function isExtendingWord(text: string, start: number, end: number): boolean {
  for (const word of EXTENDING_WORDS) {
    if (word.length !== end - start) continue;
    let i = 0;
    while (i < word.length && (text.charCodeAt(start + i) | 0x20) === word.charCodeAt(i)) i++;
    if (i === word.length) return true;
  }
  return false;
}

/**
 * Whether a number ending at `end` is complete: no digit-led date, unit, percent sign, ordinal or
 * month name follows that DIGIT_FIRST could fold into a longer match. Conservative: false only
 * sends the caller to the full grammar.
 */
function endsPlainNumber(text: string, end: number, to = text.length): boolean {
  if (end >= to) return true;
  const next = text.charCodeAt(end);
  if (isDigitUnit(next)) return false;
  if (
    (next === 44 || next === 45 || next === 46 || next === 47) &&
    end + 1 < to &&
    isDigitUnit(text.charCodeAt(end + 1))
  ) {
    return false;
  }
  let q = end;
  while (q < to && isSpaceUnit(text.charCodeAt(q))) q++;
  if (q >= to) return true;
  const unit = text.charCodeAt(q);
  // % 年 月 日 号 万 亿
  if (
    unit === 37 ||
    unit === 0x5e74 ||
    unit === 0x6708 ||
    unit === 0x65e5 ||
    unit === 0x53f7 ||
    unit === 0x4e07 ||
    unit === 0x4ebf
  ) {
    return false;
  }
  // Only words starting like an extending word or a month need reading ("22.6 km" does not).
  if (unit < 128 && (IS_EXTENDING_INITIAL[unit | 0x20] === 1 || IS_MONTH_INITIAL[unit] === 1)) {
    let wordEnd = q + 1;
    while (wordEnd < to && isAsciiLetterUnit(text.charCodeAt(wordEnd))) wordEnd++;
    if (isExtendingWord(text, q, wordEnd)) return false;
    if (wordEnd - q >= 3 && isMonthPrefixAt(text, q)) return false;
  }
  return true;
}

/** End of the plain number (see above) that starts at the digit at `at`. */
function plainNumberEnd(text: string, at: number, n = text.length): number {
  let i = at;
  while (i < n && isDigitUnit(text.charCodeAt(i))) i++;
  // "1,234,567": one to three digits, then groups of a comma and three digits (as many as there
  // are; a fourth digit after a group does not undo it, as in the regex).
  if (i - at <= 3) {
    while (
      i + 3 < n &&
      text.charCodeAt(i) === 44 &&
      isDigitUnit(text.charCodeAt(i + 1)) &&
      isDigitUnit(text.charCodeAt(i + 2)) &&
      isDigitUnit(text.charCodeAt(i + 3))
    ) {
      i += 4;
    }
  }
  if (i + 1 < n && text.charCodeAt(i) === 46 && isDigitUnit(text.charCodeAt(i + 1))) {
    i += 2;
    while (i < n && isDigitUnit(text.charCodeAt(i))) i++;
  }
  return i;
}

/** Length of the plain number at `at`, or -1 when no digit is there. */
function plainNumberLength(text: string, at = 0): number {
  return at < text.length && isDigitUnit(text.charCodeAt(at)) ? plainNumberEnd(text, at) - at : -1;
}

/**
 * canonicalDecimal of the plain number raw[0, length), followed by the rest of `raw` (the "%" of
 * "22.1%"). Most numbers are written canonically already ("1869", "22.1%"): then the spelling is
 * the value, and nothing is allocated.
 */
function plainNumberValue(raw: string, length: number): string {
  let dot = -1;
  let grouped = false;
  for (let i = 0; i < length; i++) {
    const unit = raw.charCodeAt(i);
    if (unit === 44) grouped = true;
    else if (unit === 46) dot = i;
  }
  const integerLength = dot < 0 ? length : dot;
  const leadingZero = raw.charCodeAt(0) === 48 && integerLength > 1;
  if (!grouped && !leadingZero && (dot < 0 || raw.charCodeAt(length - 1) !== 48)) return raw;
  const rest = raw.slice(length);
  if (grouped && !leadingZero && dot < 0) return withoutCommas(raw, length) + rest;
  const fraction = dot < 0 ? "" : raw.slice(dot + 1, length);
  return canonicalDecimal(raw.slice(0, integerLength), fraction) + rest;
}

/** "6,643" -> "6643": raw[0, length) without its separators (by slices: replaceAll costs more). */
function withoutCommas(raw: string, length: number): string {
  let digits = "";
  let from = 0;
  for (let comma = raw.indexOf(","); comma >= 0 && comma < length; comma = raw.indexOf(",", from)) {
    digits += raw.slice(from, comma);
    from = comma + 1;
  }
  return digits + raw.slice(from, length);
}

/**
 * The mention DIGIT_FIRST would read at `at` (a digit where a match may start), decided without
 * the big regex for plain numbers and immediate percentages; undefined when the full grammar is
 * needed.
 */
function quickMentionAt(text: string, at: number, to = text.length): NumberMention | undefined {
  const end = plainNumberEnd(text, at, to);
  if (end < to && text.charCodeAt(end) === 37 /* % */) {
    const raw = text.slice(at, end + 1);
    return {
      raw,
      value: plainNumberValue(raw, end - at),
      kind: "percent",
      index: at,
      end: end + 1,
    };
  }
  if (!endsPlainNumber(text, end, to)) return undefined;
  const raw = text.slice(at, end);
  return { raw, value: plainNumberValue(raw, raw.length), kind: "number", index: at, end };
}

/** The match of the full grammar at `at` (a digit, where one always matches). */
function digitFirstAt(text: string, at: number): RegExpExecArray {
  DIGIT_FIRST_AT.lastIndex = at;
  return DIGIT_FIRST_AT.exec(text) as RegExpExecArray;
}

/**
 * Numbers and dates in `text`, in order. Digits inside citation markers ([1], [n12]) and inside
 * identifiers (A380, v2) are not numbers; list enumerators at the start of a line are skipped.
 */
export function extractNumbers(text: string): NumberMention[] {
  const plain = blankCitationMarkers(isAscii(text) ? text : text.normalize("NFKC"));
  return numbersOfPlain(plain, 0, plain.length);
}

/**
 * extractNumbers(plain.slice(from, to)), offsets relative to `from`, for text that needs no
 * folding: NFKC already, without citation markers (as ASCII text without "[" is). Read in place:
 * the gate keeps an answer's sentences in one string and reads each without copying it out.
 * `marks`, when given, are contentTokensIn's for the range (they may cover more): the scan then
 * searches the text neither for digits nor for month names, which start capitalised words.
 */
export function extractNumbersIn(
  plain: string,
  from: number,
  to: number,
  marks?: TextMarks,
): NumberMention[] {
  return numbersOfPlain(plain, from, to, marks);
}

/** Whether one of the capitalised words marked in text[from, to) starts like a month. */
function marksMonth(text: string, capitals: readonly number[], from: number, to: number): boolean {
  for (let c = firstRunFrom(capitals, from); c < capitals.length; c++) {
    const at = capitals[c] as number;
    if (at >= to) return false;
    if (isMonthPrefixAt(text, at)) return true;
  }
  return false;
}

/** Index of the first of the ascending `runs` at or after `from` (runs.length when none). */
function firstRunFrom(runs: readonly number[], from: number): number {
  let low = 0;
  let high = runs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((runs[middle] as number) < from) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Whether `pattern` (global) matches inside text[from, to) other than at a line break. Patterns
 * match line breaks too so that, in text whose lines are the ranges asked about (an answer's
 * sentences, one per line), a search stops at the end of its line instead of running through
 * the rest of the text.
 */
function occursIn(pattern: RegExp, text: string, from: number, to: number): boolean {
  pattern.lastIndex = from;
  while (pattern.test(text)) {
    if (pattern.lastIndex > to) return false;
    if (text.charCodeAt(pattern.lastIndex - 1) !== 10) return true;
  }
  return false;
}

// Stops at each digit, and at line breaks, which end the gate's sentences: a search for the next
// digit in one sentence does not run on through the rest of the answer.
const DIGIT_OR_LINE = /[\d\n]/g;

/** Index of the first digit in text[from, to), or -1. */
function nextDigit(text: string, from: number, to: number): number {
  DIGIT_OR_LINE.lastIndex = from;
  while (DIGIT_OR_LINE.test(text)) {
    const at = DIGIT_OR_LINE.lastIndex - 1;
    if (at >= to) return -1;
    if (text.charCodeAt(at) !== 10) return at;
  }
  return -1;
}

// A month's prefix, without the \b of MAY_HOLD_MONTH: a test that may say yes too often; and
// line breaks (see occursIn).
const MONTH_PREFIX = /Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|\n/g;

/**
 * Numbers of text[from, to), which is NFKC-folded and has its markers blanked; offsets relative
 * to `from`. Every alternative of DIGIT_FIRST starts with a digit and one always matches there,
 * so the scan reads the match at each next digit, then resumes after it.
 */
function numbersOfPlain(
  text: string,
  from: number,
  to: number,
  marks?: TextMarks,
): NumberMention[] {
  const digitRuns = marks?.digitRuns;
  const found: NumberMention[] = [];
  // The full grammar reads the range alone, so that no match runs past its end.
  let range: string | undefined;
  let run = digitRuns === undefined ? 0 : firstRunFrom(digitRuns, from);
  let next = from;
  for (;;) {
    // The first digit at or after `next`: there, or else where the next run of digits starts.
    let at: number;
    if (digitRuns === undefined) {
      at = nextDigit(text, next, to);
    } else if (next < to && isDigitUnit(text.charCodeAt(next))) {
      at = next;
    } else {
      while (run < digitRuns.length && (digitRuns[run] as number) < next) run++;
      at = run < digitRuns.length ? (digitRuns[run] as number) : to;
    }
    if (at < 0 || at >= to) break;
    const clean = digitsMayStartAt(text, at, from) && !isListEnumerator(text, at, from, to);
    const quick = clean ? quickMentionAt(text, at, to) : undefined;
    if (quick !== undefined) {
      next = quick.end;
      quick.index -= from;
      quick.end -= from;
      found.push(quick);
      continue;
    }
    range ??= from === 0 && to === text.length ? text : text.slice(from, to);
    const match = digitFirstAt(range, at - from);
    if (clean) for (const mention of digitFirstMentions(match)) found.push(mention);
    next = at + match[0].length;
  }
  const mayHoldMonth =
    marks === undefined
      ? occursIn(MONTH_PREFIX, text, from, to)
      : marksMonth(text, marks.capitals, from, to);
  if (!mayHoldMonth) return found;
  range ??= from === 0 && to === text.length ? text : text.slice(from, to);
  return withMonthFirstDates(found, monthFirstMentions(range));
}

/**
 * extractNumbers read straight from the grammar: DIGIT_FIRST at every digit where a number may
 * start, MONTH_FIRST over the whole text. It is the specification extractNumbers' shortcuts
 * (the hand-read plain numbers, the month-name test) must agree with; the tests compare them.
 */
export function extractNumbersByGrammar(text: string): NumberMention[] {
  const plain = blankCitationMarkers(isAscii(text) ? text : text.normalize("NFKC"));
  const found: NumberMention[] = [];
  const nextDigit = /\d/g;
  for (let m = nextDigit.exec(plain); m !== null; m = nextDigit.exec(plain)) {
    const match = digitFirstAt(plain, m.index);
    if (digitsMayStartAt(plain, m.index) && !isListEnumerator(plain, m.index)) {
      for (const mention of digitFirstMentions(match)) found.push(mention);
    }
    nextDigit.lastIndex = m.index + match[0].length;
  }
  return withMonthFirstDates(found, monthFirstMentions(plain));
}

/**
 * Digit-first mentions merged with month-first dates: "March 5, 2021" is one date, not the
 * numbers 5 and 2021. Where matches overlap, the one that starts first (then the longer) wins.
 */
function withMonthFirstDates(found: NumberMention[], dated: NumberMention[]): NumberMention[] {
  if (dated.length === 0) return found;
  const ordered = [...found, ...dated].sort((a, b) => a.index - b.index || b.end - a.end);
  const mentions: NumberMention[] = [];
  let covered = -1;
  let coveredFrom = -1;
  for (const mention of ordered) {
    // Parts of one invalid date share their match's start; keep them together.
    if (mention.index < covered && mention.index !== coveredFrom) continue;
    mentions.push(mention);
    if (mention.index !== coveredFrom) coveredFrom = mention.index;
    covered = Math.max(covered, mention.end);
  }
  return mentions;
}

const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  dozen: 12,
};
const NUMBER_WORD =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|dozen)\b/gi;
const CJK_DIGITS: Record<string, number> = {
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const CJK_NUMERAL = /([一二三四五六七八九])?十([一二三四五六七八九])?|[一二两三四五六七八九]/g;

/**
 * The values a mention in evidence supports: its own, the year, year-month and month-day of a date
 * (evidence of "5 March 2021" supports "in 2021"), and a percentage as a plain number too.
 */
/** Whether a mention in evidence supports `value` (see supportedValues), without allocating. */
export function supportsValue(mention: NumberMention, value: string): boolean {
  if (mention.value === value) return true;
  if (mention.kind === "percent") {
    return value.length === mention.value.length - 1 && mention.value.startsWith(value);
  }
  return mention.kind === "date" && supportedValues(mention).includes(value);
}

export function supportedValues(mention: NumberMention): string[] {
  if (mention.kind === "percent") return [mention.value, mention.value.slice(0, -1)];
  if (mention.kind !== "date") return [mention.value];
  const parts = mention.value.split("-");
  if (parts.length === 3) {
    return [
      mention.value,
      `${parts[0]}-${parts[1]}`,
      `${parts[1]}-${parts[2]}`,
      String(Number(parts[0])),
    ];
  }
  if (parts.length === 2 && (parts[0]?.length ?? 0) === 4)
    return [mention.value, String(Number(parts[0]))];
  return [mention.value];
}

/**
 * Every value a claim may match in this evidence: supportedValues of each mention, and small
 * spelled-out numbers ("three bridges", "三座桥") as digits.
 */
export function evidenceNumberValues(text: string): Set<string> {
  const values = new Set<string>();
  for (const mention of extractNumbers(text)) {
    for (const value of supportedValues(mention)) values.add(value);
  }
  NUMBER_WORD.lastIndex = 0;
  for (let m = NUMBER_WORD.exec(text); m !== null; m = NUMBER_WORD.exec(text)) {
    values.add(String(NUMBER_WORDS[m[0].toLowerCase()]));
  }
  if (!isAscii(text)) {
    CJK_NUMERAL.lastIndex = 0;
    for (let m = CJK_NUMERAL.exec(text); m !== null; m = CJK_NUMERAL.exec(text)) {
      if (m[0].includes("十")) {
        const tens = m[1] === undefined ? 1 : (CJK_DIGITS[m[1]] ?? 1);
        values.add(String(tens * 10 + (m[2] === undefined ? 0 : (CJK_DIGITS[m[2]] ?? 0))));
      } else {
        values.add(String(CJK_DIGITS[m[0]]));
      }
    }
  }
  return values;
}

const DIGIT_FIRST_AT = new RegExp(DIGIT_FIRST.source, "y");

function isDigitUnit(unit: number): boolean {
  return unit >= 48 && unit <= 57;
}

/**
 * Whether a whole-text parse would start a digit-first mention at `at`, and not find `at` inside
 * a longer date ("2021-03-05", "2016年7月12日", "March 5, 2021", "5 March 2021") or a list number.
 * Conservative: a false answer only sends the caller to the full parse.
 */
function startsCleanly(text: string, at: number): boolean {
  if (!digitsMayStartAt(text, at)) return false;
  const before = text.charCodeAt(at - 1);
  if ((before === 45 || before === 47 || before === 46) && isDigitUnit(text.charCodeAt(at - 2))) {
    return false;
  }
  let j = at - 1;
  while (j >= 0 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j--;
  const previous = text.charCodeAt(j);
  if (previous === 0x5e74 /* 年 */ || previous === 0x6708 /* 月 */) return false;
  if (monthDateBefore(text, at)) return false;
  return !isListEnumerator(text, at);
}

/**
 * Whether a month name starting within the 24 characters before `at` may begin a date that runs
 * on to `at` ("March 5, 2021", "5 March 2021", "Sept. 2021"): the nearest word before `at`, past
 * what may separate a month from the day or year of a date (white space, "," and ".", a day
 * with its ordinal suffix), starts like a month. Conservative, so it may say yes too often; and
 * like a test of every position in those 24 characters, it sees no month further back. It reads
 * back only to the nearest word, which is most of the cost saved: it runs for every number the
 * answer copies from a hit.
 */
function monthDateBefore(text: string, at: number): boolean {
  const stop = Math.max(0, at - 24);
  let k = at - 1;
  for (;;) {
    while (k >= stop && isDateGlue(text.charCodeAt(k))) k--;
    if (k < stop || !isAsciiLetterUnit(text.charCodeAt(k))) return false;
    let start = k;
    while (start > 0 && isAsciiLetterUnit(text.charCodeAt(start - 1))) start--;
    // Letters right after digits are a day's ordinal suffix ("5th"): the month is further back.
    if (start > 0 && isDigitUnit(text.charCodeAt(start - 1))) {
      k = start - 1;
      continue;
    }
    return start >= stop && isMonthPrefixAt(text, start);
  }
}

/** A digit, "," or ".", or white space as the date patterns' \s reads it. */
function isDateGlue(unit: number): boolean {
  return isDigitUnit(unit) || unit === 44 || unit === 46 || isRegexSpaceUnit(unit);
}

/** Whether the UTF-16 unit matches \s in a regex without the "u" flag. */
function isRegexSpaceUnit(unit: number): boolean {
  if (unit < 0x80) return unit === 32 || (unit >= 9 && unit <= 13);
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/**
 * Whether `text` (NFKC, citation markers blanked) states `mention.value` where it spells the number exactly as the mention
 * does: the usual case, when an answer copies a figure from its source. Exact but partial: a
 * false answer means "not found this way", and the caller must consult evidenceNumberValues(text),
 * which also covers reformatted numbers ("1200" for "1,200"), dates and spelled-out numbers.
 */
export function statesNumberAsWritten(text: string, mention: NumberMention): boolean {
  const raw = mention.raw;
  if (!isDigitUnit(raw.charCodeAt(0))) return false;
  // A plain number or an immediate percentage reads as exactly its own spelling wherever that
  // spelling is a complete number, so equal spelling means equal value: no parse needed.
  const digitsEnd = plainNumberLength(raw);
  const percent = digitsEnd === raw.length - 1 && raw.charCodeAt(digitsEnd) === 37;
  const plain = digitsEnd === raw.length && mention.kind === "number";
  for (let at = text.indexOf(raw); at >= 0; at = text.indexOf(raw, at + 1)) {
    if (!startsCleanly(text, at)) continue;
    // The text spells the whole of `raw` here, so its number reads as far as raw's unless
    // something follows that extends it: nothing can follow a "%", and endsPlainNumber rules out
    // the digits, separators and words that could.
    if (percent || (plain && endsPlainNumber(text, at + raw.length))) return true;
    const quick = quickMentionAt(text, at);
    if (quick !== undefined) {
      if (supportsValue(quick, mention.value)) return true;
      continue;
    }
    for (const found of digitFirstMentions(digitFirstAt(text, at))) {
      if (supportsValue(found, mention.value)) return true;
    }
  }
  return false;
}
