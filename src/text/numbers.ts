// Numbers and dates as comparable values: "1,200" and "1200" are one fact, as are "3.50" and
// "3.5", "12.5 percent" and "12.5%", "March 5, 2021" and "2021-03-05" and "2021年3月5日".

import { blankCitationMarkers } from "./markers.js";
import { isAscii } from "./normalize.js";
import { extractNumberWords } from "./number-words.js";

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

/** Whether the digit at `index` numbers a list item. */
function isListEnumerator(text: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const unit = text.charCodeAt(i);
    if (unit === 10) break;
    if (unit !== 32 && unit !== 9) return false;
  }
  return LIST_ENUMERATOR.test(text.slice(index, index + 6));
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
function digitsMayStartAt(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text.charCodeAt(index - 1);
  if (
    (before >= 48 && before <= 57) ||
    (before >= 65 && before <= 90) ||
    (before >= 97 && before <= 122)
  ) {
    return false;
  }
  if (before === 46 || before === 44) {
    const twoBefore = index >= 2 ? text.charCodeAt(index - 2) : -1;
    return !(twoBefore >= 48 && twoBefore <= 57);
  }
  return true;
}

/**
 * Numbers and dates in `text`, in order: DIGIT_FIRST read at every digit where a number may start
 * (not inside an identifier such as A380 or a longer number, not a list enumerator at the start
 * of a line), merged with MONTH_FIRST's dates. Digits inside citation markers ([1], [n12]) are
 * not numbers.
 */
export function extractNumbers(text: string): NumberMention[] {
  const plain = blankCitationMarkers(isAscii(text) ? text : text.normalize("NFKC"));
  const found: NumberMention[] = [];
  // Every alternative of DIGIT_FIRST starts with a digit and one always matches there, so each
  // match starts at the next digit after the previous match.
  DIGIT_FIRST.lastIndex = 0;
  for (let m = DIGIT_FIRST.exec(plain); m !== null; m = DIGIT_FIRST.exec(plain)) {
    if (digitsMayStartAt(plain, m.index) && !isListEnumerator(plain, m.index)) {
      for (const mention of digitFirstMentions(m)) found.push(mention);
    }
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

/**
 * The values a mention in evidence supports: its own, the year, year-month and month-day of a date
 * (evidence of "5 March 2021" supports "in 2021"), and a percentage as a plain number too.
 */
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

/** Values of the numbers and dates written with digits (supportedValues of each mention). */
export function evidenceDigitValues(text: string): Set<string> {
  const values = new Set<string>();
  for (const mention of extractNumbers(text)) {
    if (mention.kind === "number" || mention.kind === "year") values.add(mention.value);
    else for (const value of supportedValues(mention)) values.add(value);
  }
  return values;
}

/**
 * Numbers spelled out ("twenty-one arches", "一万两千名", "三座桥"), as digits: the one reader of
 * number words (number-words.ts), shared by the gate, groundedness and the reference judge.
 */
export function evidenceWordValues(text: string): Set<string> {
  return new Set(extractNumberWords(text).map((mention) => mention.value));
}

/** Every value a claim may match in this evidence: digit-written and spelled-out numbers. */
export function evidenceNumberValues(text: string): Set<string> {
  const values = evidenceDigitValues(text);
  for (const value of evidenceWordValues(text)) values.add(value);
  return values;
}
