// Whether an answer states a reference answer, and whether it contradicts it: what a reference is
// for. Extra words are not errors (a chat answer that says the reference and adds context is
// right); a different number or date for the same thing is; a reference named only to be denied
// ("X won, defeating the Broncos") or offered as one of two guesses ("Sydney or Canberra") is not
// stated. Several references are acceptable answers: the best-matching one decides, as SQuAD's
// script takes its maximum over references.

import {
  contentTokens,
  extractNumbers,
  extractNumberWords,
  hasUnspacedScript,
  isAscii,
  isStopword,
  stemToken,
  stripCitationMarkers,
} from "../../text/index.js";
import type { Evidence } from "./groundedness.js";
import { squadTokens } from "./squad.js";
import { referenceForms } from "./reference-forms.js";

/**
 * correct: states a reference and contradicts none of it. partial: states part of it (one fact of
 * two, one word of a two-word name), only less precisely (a year for a full date), or only as one
 * of several guesses. incorrect: does not state it. contradicted: states something else for what
 * the reference states (another number, date or count of the same unit) or denies it.
 * abstained: declines to answer.
 */
export type ReferenceVerdictKind =
  "correct" | "partial" | "incorrect" | "contradicted" | "abstained";

export interface ReferenceMatch {
  verdict: ReferenceVerdictKind;
  /** Index of the best-matching reference among those given. */
  reference_index: number;
  /** How it was found stated: the reference's words in order, its facts, a name's last word. */
  matched_by: "contains" | "facts" | "name" | "abstention" | "none";
  /** Share of the reference's key facts (numbers, and words the question lacks) the answer states. */
  coverage: number;
  /** Stated less precisely than the reference, but consistently ("July 2016" for 12 July 2016). */
  coarser: boolean;
  /** The reference is named only beside "or" ("Sydney or Canberra"). */
  hedged: boolean;
  /** What contradicts it: "1870 where the reference says 1869", "denies Denver Broncos". */
  contradictions: string[];
  /** The same contradictions as data, so they can be worded in another language. */
  conflicts: ReferenceConflict[];
  /** Reference facts the answer does not state, at most 8. */
  missing: string[];
}

/**
 * One contradiction: another value where the reference states one, a value of the reference
 * denied ("not 1784"), or the reference itself denied.
 */
export type ReferenceConflict =
  | { kind: "other_value"; answer: string; reference: string }
  | { kind: "denies_value"; what: string }
  | { kind: "denies_reference"; what: string };

/** A contradiction in English words (the `contradictions` field). */
export function conflictWords(conflict: ReferenceConflict): string {
  switch (conflict.kind) {
    case "other_value":
      return `${conflict.answer} where the reference says ${conflict.reference}`;
    case "denies_value":
      return `denies ${conflict.what}`;
    case "denies_reference":
      return `denies "${conflict.what}"`;
  }
}

const VERDICT_RANK: Record<ReferenceVerdictKind, number> = {
  correct: 4,
  partial: 3,
  abstained: 2,
  incorrect: 1,
  contradicted: 0,
};

/** Clause boundaries: a cue word before a mention only counts inside its clause. */
const CLAUSE_BREAK = /[;:!?，。；：！？()（）—–]|[.,](?=\s|$)|,(?!\d)/g;

/**
 * Words that deny or displace what follows within two words: "not 1784", "defeating the Broncos",
 * "bigger than Jupiter", "followed by Neil Armstrong". Read on lower-cased text. A copula between
 * ends their reach: an answer restating its question ("the smallest prime greater than 10 is 11",
 * "the city that rose against Rome was Carthage") denies nothing it then names.
 */
const DENIAL_BEFORE =
  /(?:^|[^\p{L}\p{N}])(?:not|never|no|nor|isn'?t|wasn'?t|aren'?t|weren'?t|than|instead of|rather than|defeating|defeated|beat|beating|beats|followed by|unlike|against|except|besides|neither)(?:\s+(?!(?:was|is|were|are|be|been)(?:\s|$))[^\s]+){0,2}\s*$/u;
const CHINESE_DENIAL_BEFORE =
  /(?:不是|并非|而非|并不是|击败了?|打败了?|战胜了?|比|除了|没有).{0,1}$/u;
const OR_BEFORE = /(?:^|[^\p{L}\p{N}])(?:or|either)(?:\s+the)?\s*$|(?:或者|还是|或)$/u;
const OR_AFTER = /^\s*(?:or\b|或者|还是|或)/u;

/** Unit words that mean the same thing, to their canonical form. */
const UNIT_SYNONYMS: Record<string, string> = {
  m: "metre",
  metre: "metre",
  meter: "metre",
  米: "metre",
  km: "km",
  kilometre: "km",
  kilometer: "km",
  公里: "km",
  千米: "km",
  min: "minute",
  minute: "minute",
  分钟: "minute",
  h: "hour",
  hr: "hour",
  hrs: "hour",
  hour: "hour",
  yr: "year",
  yrs: "year",
  year: "year",
  sec: "second",
  secs: "second",
  second: "second",
  lb: "pound",
  lbs: "pound",
  pound: "pound",
  ft: "foot",
  feet: "foot",
  foot: "foot",
  kg: "kg",
  kilogram: "kg",
  people: "person",
  person: "person",
  resident: "person",
  人: "person",
  名: "person",
};

function canonicalUnit(word: string): string {
  const stem = stemToken(word);
  return UNIT_SYNONYMS[stem] ?? UNIT_SYNONYMS[word] ?? stem;
}

/** A number or date in a text, with the words that follow it (its unit) and its clause. */
interface Quantity {
  raw: string;
  value: string;
  /** Year-like: a date, a month, or a plain year (4 digits, 1000-2199). */
  dateLike: boolean;
  units: string[];
  denied: boolean;
  hedged: boolean;
}

const YEAR = /^1\d{3}$|^2[01]\d{2}$/;
const DATE_VALUE = /^\d{4}-\d\d(?:-\d\d)?$|^\d\d-\d\d$/;

/** Where each clause of `text` starts, in order, for finding the clause of an offset. */
function clauseStarts(text: string): number[] {
  const starts = [0];
  CLAUSE_BREAK.lastIndex = 0;
  for (let m = CLAUSE_BREAK.exec(text); m !== null; m = CLAUSE_BREAK.exec(text)) {
    starts.push(m.index + m[0].length);
  }
  return starts;
}

function clauseStartOf(starts: readonly number[], index: number): number {
  let start = 0;
  for (const s of starts) {
    if (s > index) break;
    start = s;
  }
  return start;
}

function clauseEndOf(starts: readonly number[], index: number, length: number): number {
  for (const s of starts) if (s > index) return s;
  return length;
}

/**
 * Up to three unit words right after `end`, up to the first stopword: "six traffic lanes" →
 * traffic, lane; "412 mostly timber buildings" → mostly, timber, building; "5个" → 个.
 */
function unitsAfter(text: string, end: number): string[] {
  const rest = text.slice(end, end + 40);
  const cjk = /^\s*([\p{Script=Han}])/u.exec(rest);
  if (cjk) {
    const two = rest.trimStart().slice(0, 2);
    const unit = UNIT_SYNONYMS[two] ? two : (cjk[1] as string);
    return [canonicalUnit(unit)];
  }
  const words = /^\s*(?:°\s*)?([\p{L}]+)(?:\s+([\p{L}]+))?(?:\s+([\p{L}]+))?/u.exec(rest);
  if (!words) return [];
  const units: string[] = [];
  for (const word of [words[1], words[2], words[3]]) {
    if (word === undefined) break;
    const lower = word.toLowerCase();
    if (isStopword(lower) || lower === "million" || lower === "billion") break;
    units.push(canonicalUnit(lower));
  }
  return units;
}

/** The lower-cased text of the clause before `index`, for the cue patterns. */
function before(text: string, starts: readonly number[], index: number): string {
  return text.slice(clauseStartOf(starts, index), index).toLowerCase();
}

function after(text: string, starts: readonly number[], end: number): string {
  return text.slice(end, clauseEndOf(starts, end, text.length)).toLowerCase();
}

function isDenied(prefix: string): boolean {
  return DENIAL_BEFORE.test(prefix) || CHINESE_DENIAL_BEFORE.test(prefix);
}

function quantitiesOf(text: string): Quantity[] {
  const plain = text.normalize("NFKC");
  const starts = clauseStarts(plain);
  const found: Quantity[] = [];
  const covered: [number, number][] = [];
  const add = (raw: string, value: string, index: number, end: number) => {
    const prefix = before(plain, starts, index);
    const dateLike = DATE_VALUE.test(value) || YEAR.test(value);
    found.push({
      raw,
      value,
      dateLike,
      // A year or a date has no unit: the word after "listed in 1987 due to" is not one.
      units: dateLike ? [] : unitsAfter(plain, end),
      denied: isDenied(prefix),
      hedged: OR_BEFORE.test(prefix) || OR_AFTER.test(after(plain, starts, end)),
    });
    covered.push([index, end]);
  };
  for (const mention of extractNumbers(plain)) {
    add(mention.raw, mention.value, mention.index, mention.end);
  }
  for (const mention of extractNumberWords(plain)) {
    if (covered.some(([from, to]) => mention.index < to && mention.end > from)) continue;
    add(mention.raw, mention.value, mention.index, mention.end);
  }
  return found;
}

/** How an answer's value relates to a reference's: the same, coarser (year for a day), other. */
function relate(
  reference: Quantity,
  answer: Quantity,
): "same" | "month" | "year" | "other" | "unrelated" {
  if (reference.dateLike !== answer.dateLike) return "unrelated";
  if (!unitsCompatible(reference.units, answer.units)) return "unrelated";
  const r = reference.value;
  const a = answer.value;
  if (r === a) return "same";
  if (reference.dateLike) {
    // A day without a year ("July 20", 07-20) is held by that day in any year, and says nothing
    // about a year alone.
    const dayOnly = (value: string) => /^\d{2}-\d{2}$/.test(value);
    const yearOnly = (value: string) => /^\d{4}$/.test(value);
    if (dayOnly(r) && a.endsWith(`-${r}`)) return "same";
    if ((dayOnly(r) && yearOnly(a)) || (yearOnly(r) && dayOnly(a))) return "unrelated";
    // A more precise answer holds the reference ("14 October 1869" for 1869).
    if (a.startsWith(`${r}-`)) return "same";
    if (r.startsWith(`${a}-`)) return a.length === 7 ? "month" : "year";
  }
  return "other";
}

function unitsCompatible(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return true;
  return a.some((unit) => b.includes(unit));
}

/**
 * The best relation of any answer quantity to one reference quantity, and a conflicting one:
 * only `rivals` (figures that state no other part of the reference) can conflict.
 */
function stateOf(
  reference: Quantity,
  answer: readonly Quantity[],
  rivals: readonly Quantity[] = answer,
): { stated: "same" | "month" | "year" | "none"; conflict?: Quantity } {
  let stated: "same" | "month" | "year" | "none" = "none";
  let conflict: Quantity | undefined;
  for (const quantity of answer) {
    const relation = relate(reference, quantity);
    if (relation === "unrelated") continue;
    if (relation === "other") {
      if (!quantity.hedged && rivals.includes(quantity)) conflict ??= quantity;
      continue;
    }
    if (quantity.denied) {
      conflict ??= quantity;
      continue;
    }
    if (quantity.hedged) continue;
    if (relation === "same") stated = "same";
    else if (relation === "month" && stated !== "same") stated = "month";
    else if (stated === "none") stated = "year";
  }
  return conflict === undefined ? { stated } : { stated, conflict };
}

export interface MatchInput {
  question: string;
  /** The answer's claims: the answer without the sentences that decline to answer. */
  claims: string;
  /** Whether the whole answer declines (abstention "full"). */
  abstained: boolean;
  /** Whether any of it declines (abstention "partial" or "full"): right when a reference does. */
  declines: boolean;
  references: readonly string[];
  /** For each reference, whether it says the answer is not known. */
  referenceAbstains: readonly boolean[];
  /** Components the public bench's ablation switches off; all on by default. */
  components?: ReferenceComponents;
}

/** Parts of the reference match added on public data (issue 26), each switchable. */
export interface ReferenceComponents {
  /** Also match each reference's shorter forms (reference-forms.ts). */
  referenceForms?: boolean;
  /** A reference of two or three words is stated written as one ("seashells"). */
  joinedWords?: boolean;
  /** Reference words are stated in another inflection or spelling (stemOf). */
  stems?: boolean;
  /** Half the added words state a reference without numbers (else 0.6). */
  halfCoverage?: boolean;
  /** The words before a reference's first comma must be stated for its words to count. */
  commaHead?: boolean;
  /** Typographic quotes read as ASCII ones ("‘Fahrenheit 451’" states 451). */
  plainQuotes?: boolean;
  /** A word spelled one letter apart states the reference's (spelledAlike). */
  spelling?: boolean;
}

/** An English word's ending, and the British "-ise" for "-ize": what stemOf removes. */
const ENDING = /(?<=\p{L}{3})(?:ing|ed|es|s|e|d)$/u;

/**
 * A light stem, so a reference word is stated in another inflection or spelling: "Zulus" by "the
 * Zulu warriors", "he aged backwards" by "he ages backward", "magnetised" by "magnetized".
 */
export function stemOf(word: string): string {
  // Accents folded: "Lomé" states "Lome".
  const folded = isAscii(word) ? word : word.normalize("NFD").replace(/\p{M}/gu, "");
  return folded.replace(ENDING, "").replace(/iz/gu, "is");
}

const stemCache = new Map<string, Set<string>>();

/** The stems of a text's SQuAD tokens; the last text's are kept (one answer, many references). */
function stemsOf(text: string): Set<string> {
  let stems = stemCache.get(text);
  if (stems === undefined) {
    stemCache.clear();
    stems = new Set(squadTokens(text).map(stemOf));
    stemCache.set(text, stems);
  }
  return stems;
}

/**
 * Two spellings of one word: a letter added or dropped when both have five letters or more
 * ("Shostakovitch" and "Shostakovich", "Niccolò" and "Niccol", "Wimpey" and "Wimpy"), or two
 * letters changed when both have eight or more. The first letter must agree. Question sets and
 * answers transliterate names differently and misspell them; shorter words are left exact, where
 * one letter makes another word ("Paris", "Parts").
 */
export function spelledAlike(a: string, b: string): boolean {
  if (a === b) return true;
  const x = foldAccents(a.toLowerCase());
  const y = foldAccents(b.toLowerCase());
  if (x === y) return true;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  if (short.length < 5 || long.length - short.length > 2 || short[0] !== long[0]) return false;
  if (!/^\p{L}+$/u.test(short) || !/^\p{L}+$/u.test(long)) return false;
  const limit = short.length >= 8 ? 2 : 1;
  if (limit === 1 && long.length === short.length) return false;
  return editDistance(short, long, limit) <= limit;
}

function foldAccents(word: string): string {
  return isAscii(word) ? word : word.normalize("NFD").replace(/\p{M}/gu, "");
}

/** Levenshtein distance, stopping early once it is above `limit` (returns limit + 1). */
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/** References of more tokens than this are never looked for word for word. */
const MAX_CONTAINED_TOKENS = 64;

/** Where a token sequence occurs in another, every start index. */
function occurrences(haystack: readonly string[], needle: readonly string[]): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    found.push(i);
  }
  return found;
}

interface Containment {
  found: boolean;
  denied: boolean;
  hedged: boolean;
}

/**
 * Whether the answer says the reference's words in order (SQuAD tokens, so "the Denver Broncos"
 * and "Denver Broncos!" meet), in a clause that neither denies it nor offers it beside "or".
 */
function containment(claims: string, reference: string, joinWords = true): Containment {
  const needle = squadTokens(reference);
  const result: Containment = { found: false, denied: false, hedged: false };
  // A reference longer than a clause is judged by its facts; the search would cost n × m.
  if (needle.length === 0 || needle.length > MAX_CONTAINED_TOKENS) return result;
  const plain = stripCitationMarkers(claims).normalize("NFKC");
  const starts = clauseStarts(plain);
  const joiner = hasUnspacedScript(plain) ? "" : " ";
  // "Sea Shells" is stated by "seashells": a reference of two or three words, written as one.
  const joined =
    joinWords && needle.length >= 2 && needle.length <= 3 && joiner === " "
      ? [needle.join("")]
      : null;
  for (let c = 0; c < starts.length; c++) {
    const clause = plain.slice(starts[c], starts[c + 1] ?? plain.length);
    const tokens = squadTokens(clause);
    const at = occurrences(tokens, needle);
    const found = at.length > 0 || joined === null ? at : occurrences(tokens, joined);
    const length = at.length > 0 || joined === null ? needle.length : 1;
    for (const at of found) {
      const prefix = tokens.slice(0, at).join(joiner);
      const suffix = tokens.slice(at + length).join(joiner);
      if (isDenied(prefix)) {
        result.denied = true;
        continue;
      }
      if (OR_BEFORE.test(prefix) || OR_AFTER.test(suffix)) {
        result.hedged = true;
        continue;
      }
      result.found = true;
      return result;
    }
  }
  return result;
}

/** A name: two or more words, each capitalised ("Leonardo da Vinci" has lower-case particles). */
function nameWords(reference: string): string[] | undefined {
  const words = reference.trim().replace(/[.,]$/, "").split(/\s+/);
  if (words.length < 2 || hasUnspacedScript(reference)) return undefined;
  if (!/^\p{Lu}/u.test(words[0] as string) || !/^\p{Lu}/u.test(words.at(-1) as string)) {
    return undefined;
  }
  if (
    !words.every((word) =>
      /^(?:\p{Lu}[\p{L}'’-]*\.?|da|de|di|van|von|der|le|la|del|bin|al)$/u.test(word),
    )
  ) {
    return undefined;
  }
  return words;
}

/**
 * A person's or team's name stated by its last word ("Austen" for Jane Austen, "Da Vinci"), when
 * no other capitalised word stands right before it as a different first name ("Wei Tinghai").
 */
function statesName(claims: string, words: readonly string[], spelling = true): boolean {
  const last = words.at(-1) as string;
  const known = words.map((word) => word.toLowerCase());
  const alike = (a: string, b: string) => (spelling ? spelledAlike(a, b) : a === b);
  // Each word of the answer, so a last name spelled another way ("Shostakovich") is found.
  const pattern = /(^|[^\p{L}])(\p{L}[\p{L}'’-]*)/gu;
  for (let m = pattern.exec(claims); m !== null; m = pattern.exec(claims)) {
    const said = m[2] as string;
    // A name is written capitalised: "Malic acid" does not state "Tartaric Acid".
    if (!/^\p{Lu}/u.test(said) || !alike(said.toLowerCase(), last.toLowerCase())) continue;
    const start = m.index + (m[1] as string).length;
    const previous = /(\p{L}+)[\s]+$/u.exec(claims.slice(Math.max(0, start - 30), start));
    const word = previous?.[1]?.toLowerCase();
    const sentenceStart = /(^|[.!?]\s+)\p{L}+\s+$/u.test(claims.slice(0, start));
    const other =
      word !== undefined &&
      /^\p{Lu}/u.test(previous?.[1] as string) &&
      !known.some((name) => alike(name, word));
    if (other && !sentenceStart) continue;
    const prefix = claims.slice(Math.max(0, start - 40), start).toLowerCase();
    if (isDenied(prefix) || OR_BEFORE.test(prefix)) continue;
    return true;
  }
  return false;
}

/**
 * Tokens of the reference that the question does not contain: what the reference adds. Numbers
 * spelled out are left out, as digits are: they are facts of their own, checked as quantities.
 */
function addedWords(reference: string, question: Evidence): string[] {
  return contentTokens(blankNumberWords(stripCitationMarkers(reference))).filter(
    (token) => !question.has(token),
  );
}

function blankNumberWords(text: string): string {
  let blanked = text;
  for (const mention of extractNumberWords(text).reverse()) {
    blanked = `${blanked.slice(0, mention.index)} ${blanked.slice(mention.end)}`;
  }
  return blanked;
}

function matchOne(
  input: MatchInput,
  reference: string,
  siblings: readonly Quantity[],
  answerQuantities: readonly Quantity[],
  question: Evidence,
  questionQuantities: readonly Quantity[],
  claimsText: Evidence,
): Omit<ReferenceMatch, "reference_index"> {
  const base = {
    coarser: false,
    hedged: false,
    contradictions: [] as string[],
    conflicts: [] as ReferenceConflict[],
    missing: [] as string[],
  };
  const contained = containment(input.claims, reference, input.components?.joinedWords !== false);
  const asked = (quantity: Quantity) => questionQuantities.some((q) => q.value === quantity.value);
  const referenceQuantities = quantitiesOf(reference)
    .filter((quantity) => !asked(quantity))
    .map((quantity) => {
      // A bare "5" takes the unit a sibling reference gives the same value ("5个").
      if (quantity.units.length > 0) return quantity;
      const sibling = siblings.find((s) => s.value === quantity.value && s.units.length > 0);
      return sibling ? { ...quantity, units: sibling.units } : quantity;
    });
  const answered = answerQuantities.filter((quantity) => !asked(quantity));
  const conflicts: ReferenceConflict[] = [];
  const missing: string[] = [];
  let statedNumbers = 0;
  let coarser = false;
  let yearOnly = false;
  for (const quantity of referenceQuantities) {
    // A figure the reference itself gives for another fact contradicts nothing: "by 1875" is not a
    // wrong year for the ordinance of 1870 when the reference says both.
    const others = referenceQuantities.filter((other) => other !== quantity);
    const rivals = answered.filter(
      (a) => !others.some((other) => ["same", "month", "year"].includes(relate(other, a))),
    );
    const state = stateOf(quantity, answered, rivals);
    if (state.stated === "same" || state.stated === "month") {
      statedNumbers++;
      if (state.stated === "month") coarser = true;
      continue;
    }
    if (state.stated === "year") yearOnly = true;
    if (state.conflict) {
      conflicts.push(
        state.conflict.denied
          ? { kind: "denies_value", what: quantity.raw }
          : { kind: "other_value", answer: state.conflict.raw, reference: quantity.raw },
      );
    }
    missing.push(quantity.raw);
  }
  // Unit words were checked with their numbers ("7.4 km"): the words left are the other facts.
  const unitWords = new Set([
    ...referenceQuantities.flatMap((quantity) => quantity.units),
    ...referenceQuantities.map((quantity) => canonicalUnit(quantity.raw.toLowerCase())),
  ]);
  const spelling = input.components?.spelling !== false;
  // A word the question spells another way ("Schwarz" for "Schwartz") is not what the reference
  // adds either.
  const questionWords = spelling ? squadTokens(input.question).map(stemOf) : [];
  const added = (text: string) =>
    addedWords(text, question).filter(
      (word) => !questionWords.some((asked) => spelledAlike(asked, stemOf(word))),
    );
  const words = added(reference).filter((word) => !unitWords.has(canonicalUnit(word)));
  const claimStems = input.components?.stems === false ? null : stemsOf(input.claims);
  const claimWords = spelling ? [...stemsOf(input.claims)] : [];
  const stated = (word: string) =>
    claimsText.has(word) ||
    (claimStems !== null && claimStems.has(stemOf(word))) ||
    claimWords.some((claim) => claim !== stemOf(word) && spelledAlike(claim, stemOf(word)));
  const statedWords = words.filter(stated);
  for (const word of words) if (!stated(word) && missing.length < 8) missing.push(word);
  const units = 2 * referenceQuantities.length + words.length;
  const coverage =
    units === 0 ? (contained.found ? 1 : 0) : (2 * statedNumbers + statedWords.length) / units;

  if (contained.found && conflicts.length === 0) {
    return { ...base, verdict: "correct", matched_by: "contains", coverage: 1, missing: [] };
  }
  if (contained.denied && !contained.found) {
    conflicts.push({ kind: "denies_reference", what: reference });
  }
  if (conflicts.length > 0) {
    return {
      ...base,
      verdict: "contradicted",
      matched_by: "none",
      coverage,
      contradictions: conflicts.map(conflictWords),
      conflicts,
      missing,
    };
  }
  if (contained.hedged) {
    return { ...base, verdict: "partial", matched_by: "none", coverage, hedged: true, missing };
  }
  if (referenceQuantities.length > 0) {
    const allNumbers = statedNumbers === referenceQuantities.length;
    // With the numbers right, the words still matter when the reference has several of them
    // ("In 1784, by salt merchants led by Wei Chenghai": the year alone answers half).
    const wordsOk = words.length < 3 || statedWords.length / words.length >= 0.5;
    if (allNumbers && wordsOk) {
      return { ...base, verdict: "correct", matched_by: "facts", coverage, coarser, missing };
    }
    const some = statedNumbers > 0 || yearOnly || statedWords.length > 0;
    return {
      ...base,
      verdict: some ? "partial" : "incorrect",
      matched_by: "none",
      coverage,
      coarser: coarser || yearOnly,
      missing,
    };
  }
  const name = nameWords(reference);
  // A last name the question already gives ("the actor Bernard Schwarz") is no answer.
  const lastAsked =
    name !== undefined &&
    questionWords.some((asked) =>
      spelledAlike(asked, stemOf((name.at(-1) as string).toLowerCase())),
    );
  if (name && !lastAsked && statesName(input.claims, name, spelling)) {
    return { ...base, verdict: "correct", matched_by: "name", coverage, coarser: true, missing };
  }
  // A name is stated whole or by its last word (above): "Wei" alone is not Wei Chenghai.
  const enough =
    input.components?.halfCoverage === false ? WORD_COVERAGE_BEFORE : WORD_COVERAGE_CORRECT;
  // "Seattle, United States of America", "Prussia (Germany)": the words before the first comma
  // or a closing bracketed note are the answer, the rest qualifies it; the qualifier alone
  // states nothing.
  const comma = reference.search(/,|[(（][^()（）]*[)）]\s*$/u);
  const headWords =
    comma > 0 && input.components?.commaHead !== false ? added(reference.slice(0, comma)) : [];
  const headStated = headWords.length === 0 || headWords.some(stated);
  if (!name && headStated && words.length > 0 && statedWords.length / words.length >= enough) {
    return { ...base, verdict: "correct", matched_by: "facts", coverage, missing };
  }
  return {
    ...base,
    verdict: statedWords.length > 0 ? "partial" : "incorrect",
    matched_by: "none",
    coverage,
    missing,
  };
}

/** A reference without numbers counts as stated when this share of its added words is. */
export const WORD_COVERAGE_CORRECT = 0.5;
/** The share required before issue 26 (the ablation's "half coverage" off). */
const WORD_COVERAGE_BEFORE = 0.6;

/**
 * Typographic quotes as ASCII ones: SQuAD's normalization removes only ASCII punctuation, so
 * "‘Fahrenheit 451’" would hold the token "451’" and never state the reference 451. Chat and web
 * answers quote titles and names with curly quotes.
 */
export function plainQuotes(text: string): string {
  return text.replace(/[‘’‚‛′`´]/gu, "'").replace(/[“”„‟″«»]/gu, '"');
}

/** The answer against every reference; the best match wins (correct > partial > ... ). */
export function matchReferences(
  given: MatchInput,
  makeEvidence: (texts: readonly string[]) => Evidence,
): ReferenceMatch {
  const input: MatchInput =
    given.components?.plainQuotes === false
      ? given
      : {
          ...given,
          claims: plainQuotes(given.claims),
          references: given.references.map(plainQuotes),
        };
  const question = makeEvidence([input.question]);
  const claims = makeEvidence([input.claims]);
  const questionQuantities = quantitiesOf(input.question);
  const answerQuantities = quantitiesOf(stripCitationMarkers(input.claims));
  const siblings = input.references.flatMap((reference) => quantitiesOf(reference));
  let best: ReferenceMatch | undefined;
  input.references.forEach((reference, index) => {
    let match: ReferenceMatch;
    if (input.referenceAbstains[index]) {
      match = {
        verdict: input.declines ? "correct" : "incorrect",
        reference_index: index,
        matched_by: "abstention",
        coverage: input.declines ? 1 : 0,
        coarser: false,
        hedged: false,
        contradictions: [],
        conflicts: [],
        missing: [],
      };
    } else if (input.abstained) {
      match = {
        verdict: "abstained",
        reference_index: index,
        matched_by: "none",
        coverage: 0,
        coarser: false,
        hedged: false,
        contradictions: [],
        conflicts: [],
        missing: [],
      };
    } else {
      const forms = input.components?.referenceForms === false ? [] : referenceForms(reference);
      let one = matchOne(
        input,
        reference,
        siblings,
        answerQuantities,
        question,
        questionQuantities,
        claims,
      );
      // A shorter form stated counts as the reference stated; its coverage is the form's.
      for (const form of forms) {
        if (one.verdict === "correct") break;
        const shorter = matchOne(
          input,
          form,
          siblings,
          answerQuantities,
          question,
          questionQuantities,
          claims,
        );
        if (VERDICT_RANK[shorter.verdict] > VERDICT_RANK[one.verdict]) one = shorter;
      }
      match = { ...one, reference_index: index };
    }
    if (
      best === undefined ||
      VERDICT_RANK[match.verdict] > VERDICT_RANK[best.verdict] ||
      (match.verdict === best.verdict && match.coverage > best.coverage)
    ) {
      best = match;
    }
  });
  if (best === undefined) throw new Error("matchReferences needs at least one reference");
  return best;
}
