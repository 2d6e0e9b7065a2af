// Number attachment: whether a figure of an answer is stated about what the answer says it is
// about. Two checks, each reading only the figure's immediate neighbours, where swaps show:
//
// - its unit: "412 metres" where the contexts say "412 buildings" and "500 metres"; "9个车站"
//   where they say "5个车站" and "停运9天". A figure whose unit the contexts give to another
//   figure, and never to it, is swapped.
// - its nearest words: "completed in 1931" where the contexts say "completed in 1938" and "in
//   1931" elsewhere. A word belongs to the nearest figure of the same sort (a year to the nearest
//   year, a percentage to the nearest percentage) in its context sentence; when the word the answer
//   puts beside a figure belongs, wherever the contexts say it, to another figure of that sort, the
//   figure is swapped.
//
// anchoring.ts measures the same thing more loosely (how many of a sentence's words stand within
// a window of the figure); this catches the swaps that stay inside one window or one sentence.

import {
  blankCitationMarkers,
  contentForm,
  contentTokensIn,
  contentTokenIndexes,
  extractNumbers,
  extractNumberWords,
  foldForSearch,
  isStopword,
  splitSentences,
  stemToken,
  supportedValues,
} from "../../text/index.js";

/** How a figure of the answer stands in the contexts. */
export type AttachmentVerdict =
  /** The contexts state it, and nothing says it belongs elsewhere. */
  | "attached"
  /** The contexts state it, but its unit or its nearest word belongs to another figure there. */
  | "swapped"
  /** The contexts do not state the value at all. */
  | "unstated";

export interface AttachedNumber {
  raw: string;
  verdict: AttachmentVerdict;
  /** What showed a swap: the unit or the word, and the figure the contexts give it to. */
  reason?: string;
}

/** Sorts of figure a word is attached to: the nearest of its own sort wins. */
type Sort = "time" | "percent" | "quantity";

interface Figure {
  raw: string;
  values: readonly string[];
  sort: Sort;
  /** The word right after it ("metres", "个", "km"), lower case and stemmed; "" when none. */
  unit: string;
  index: number;
  end: number;
  /** A name, not an amount: "Line 2", "Terminal 3", "1号线". Never a rival, never checked. */
  label: boolean;
}

const YEAR = /^\d{4}$/;

function sortOf(raw: string, value: string, kind: string): Sort {
  if (kind === "date" || kind === "year") return "time";
  // An English year is a bare four-digit number ("in 1931"); "1,340" is a quantity.
  if (YEAR.test(value) && !raw.includes(",")) {
    const year = Number(value);
    if (year >= 1000 && year <= 2100) return "time";
  }
  return kind === "percent" ? "percent" : "quantity";
}

const SPACED_UNIT = /^ ?([\p{L}][\p{L}'-]*)/u;
const HAN = /^\p{Script=Han}/u;

/**
 * The word right after a figure: one Han character ("个", "天", "米", "公" of 公里), or an
 * English word separated by at most one space. None when punctuation or more than a space follows.
 */
function unitAfter(text: string, end: number): string {
  const rest = text.slice(end, end + 24);
  if (HAN.test(rest)) return rest[0] as string;
  const word = SPACED_UNIT.exec(rest)?.[1]?.toLowerCase();
  return word === undefined || isStopword(word) ? "" : stemToken(word);
}

const NAME_BEFORE = /(?:^|\s)(\p{Lu}[\p{L}]*) $/u;

/** "Line 2" (a capitalized word that is no stopword right before) or "1号线" (号 right after). */
function isLabel(text: string, index: number, end: number, sort: Sort): boolean {
  if (sort !== "quantity") return false;
  if (text[end] === "号") return true;
  const name = NAME_BEFORE.exec(text.slice(Math.max(0, index - 24), index))?.[1];
  return name !== undefined && !isStopword(name.toLowerCase());
}

function figuresOf(text: string): Figure[] {
  const figures: Figure[] = extractNumbers(text).map((m) => {
    const sort = sortOf(m.raw, m.value, m.kind);
    return {
      raw: m.raw,
      values: supportedValues(m),
      sort,
      unit: unitAfter(text, m.end),
      index: m.index,
      end: m.end,
      label: isLabel(text, m.index, m.end, sort),
    };
  });
  for (const word of extractNumberWords(text)) {
    if (figures.some((f) => word.index < f.end && word.end > f.index)) continue;
    figures.push({
      raw: word.raw,
      values: [word.value],
      sort: "quantity",
      unit: unitAfter(text, word.end),
      index: word.index,
      end: word.end,
      label: false,
    });
  }
  return figures.sort((a, b) => a.index - b.index);
}

const shares = (a: Figure, b: Figure) => a.values.some((value) => b.values.includes(value));

/** A context sentence: its folded text and its figures, offsets within it. */
interface ContextSentence {
  folded: string;
  figures: Figure[];
  /** The figures that can be a word's nearest, by sort: labels left out. */
  rivals: Record<Sort, Figure[]>;
  positions: Map<string, number[]>;
}

function contextSentences(contexts: readonly string[]): ContextSentence[] {
  const out: ContextSentence[] = [];
  for (const context of contexts) {
    const plain = blankCitationMarkers(context).normalize("NFKC");
    for (const sentence of splitSentences(plain)) {
      const figures = figuresOf(sentence.text);
      const rivals: Record<Sort, Figure[]> = { time: [], percent: [], quantity: [] };
      for (const figure of figures) if (!figure.label) rivals[figure.sort].push(figure);
      out.push({ folded: foldForSearch(sentence.text), figures, rivals, positions: new Map() });
    }
  }
  return out;
}

function positionsOf(sentence: ContextSentence, token: string): number[] {
  let found = sentence.positions.get(token);
  if (found === undefined) {
    found = contentTokenIndexes(sentence.folded, token);
    sentence.positions.set(token, found);
  }
  return found;
}

/** Clause breaks: words across one are a figure's neighbours only when its clause has none. */
const CLAUSE_BREAK = /[,;:，；：、()（）]/u;

type Span = readonly [number, number];

/**
 * The spans next to a figure on each side (before, after), up to the next figure that is no
 * label: [within its clause, beyond the clause break].
 */
function neighbourSpans(text: string, figures: readonly Figure[], at: number): [Span, Span][] {
  const figure = figures[at] as Figure;
  // A label ("Line 2") is part of the words around a figure, not a figure bounding them.
  let from = 0;
  for (let i = at - 1; i >= 0; i--) {
    const other = figures[i] as Figure;
    if (!other.label) {
      from = other.end;
      break;
    }
  }
  let to = text.length;
  for (let i = at + 1; i < figures.length; i++) {
    const other = figures[i] as Figure;
    if (!other.label) {
      to = other.index;
      break;
    }
  }
  let breakBefore = -1;
  for (let i = figure.index - 1; i >= from; i--) {
    if (CLAUSE_BREAK.test(text[i] as string)) {
      breakBefore = i;
      break;
    }
  }
  let breakAfter = -1;
  for (let i = figure.end; i < to; i++) {
    if (CLAUSE_BREAK.test(text[i] as string)) {
      breakAfter = i;
      break;
    }
  }
  return [
    breakBefore < 0
      ? [
          [from, figure.index],
          [from, from],
        ]
      : [
          [breakBefore + 1, figure.index],
          [from, breakBefore],
        ],
    breakAfter < 0
      ? [
          [figure.end, to],
          [to, to],
        ]
      : [
          [figure.end, breakAfter],
          [breakAfter + 1, to],
        ],
  ];
}

const NAME = /\p{Lu}[\p{L}'-]*/gu;

/** Content tokens of capitalized words in the span, the sentence's first word left out. */
function namesIn(text: string, [from, to]: Span): string[] {
  const names: string[] = [];
  for (const match of text.slice(from, to).matchAll(NAME)) {
    if (from + (match.index ?? 0) === 0) continue;
    const token = contentForm(match[0].toLowerCase());
    if (token !== undefined) names.push(token);
  }
  return names;
}

/** Words tried on each side of a figure: the nearest ones the contexts hold. */
const WORDS_PER_SIDE = 2;

/**
 * Whether the contexts attach `token` to the figure: "yes" if, in some context sentence, the
 * figure of its sort nearest to the word states the value; "no" if the word stands beside figures
 * of that sort but never nearest to this one; null if it never stands beside a figure of that sort.
 */
function wordAttaches(
  token: string,
  figure: Figure,
  sentences: readonly ContextSentence[],
): { attaches: boolean; other?: string } | null {
  let other: string | undefined;
  for (const sentence of sentences) {
    const rivals = sentence.rivals[figure.sort];
    if (rivals.length === 0) continue;
    for (const at of positionsOf(sentence, token)) {
      let nearest: Figure | undefined;
      let distance = Number.POSITIVE_INFINITY;
      for (const rival of rivals) {
        const d = at < rival.index ? rival.index - at : Math.max(0, at - rival.end);
        if (d < distance) {
          distance = d;
          nearest = rival;
        }
      }
      if (nearest === undefined) continue;
      if (shares(nearest, figure)) return { attaches: true };
      other ??= nearest.raw;
    }
  }
  return other === undefined ? null : { attaches: false, other };
}

/** The attachment of one figure of an answer sentence. */
function attach(
  text: string,
  figures: readonly Figure[],
  at: number,
  sentences: readonly ContextSentence[],
): AttachedNumber {
  const figure = figures[at] as Figure;
  const stated: Figure[] = [];
  for (const sentence of sentences) {
    for (const f of sentence.figures) if (shares(f, figure)) stated.push(f);
  }
  if (stated.length === 0) return { raw: figure.raw, verdict: "unstated" };
  if (figure.label) return { raw: figure.raw, verdict: "attached" };
  if (figure.unit !== "" && figure.sort !== "time") {
    const sameUnit = stated.some((f) => f.unit === figure.unit);
    if (!sameUnit) {
      const owner = sentences
        .flatMap((s) => s.figures)
        .find((f) => f.unit === figure.unit && !shares(f, figure));
      if (owner !== undefined) {
        return {
          raw: figure.raw,
          verdict: "swapped",
          reason: `"${figure.unit}" goes with ${owner.raw}`,
        };
      }
    }
  }
  const spans = neighbourSpans(text, figures, at);
  // A name beside a year in its clause ("The Jade River Bridge opened in 1997") says what it dates
  // better than a verb the contexts use for several things ("opened"): when the name stands
  // beside years in the contexts but never beside this one, it is swapped. Not for amounts: a
  // context says "It is 1,340 metres long" as often as it repeats the name.
  let nameAttaches = false;
  let nameAgainst: string | undefined;
  for (const [near] of figure.sort === "time" ? spans : []) {
    for (const token of namesIn(text, near)) {
      const found = wordAttaches(token, figure, sentences);
      if (found?.attaches) nameAttaches = true;
      else if (found) nameAgainst ??= `"${token}" goes with ${found.other}`;
    }
  }
  if (nameAgainst !== undefined && !nameAttaches) {
    return { raw: figure.raw, verdict: "swapped", reason: nameAgainst };
  }
  // The nearest words on each side; one that attaches the figure outweighs those that do not
  // ("completed in 1938 after a typhoon": the typhoon's year is 1931, the completion's 1938).
  let against: string | undefined;
  for (const [near, far] of spans) {
    // Before the figure, the nearest words are the last ones.
    const tokensIn = ([from, to]: Span) => {
      const tokens = from < to ? contentTokensIn(text, from, to) : [];
      return near[1] === figure.index ? tokens.reverse() : tokens;
    };
    let side = tokensIn(near);
    // Past a clause break ("the first stone quay, built in 1784") only when the clause itself
    // says nothing the contexts hold.
    if (!side.some((token) => sentences.some((s) => positionsOf(s, token).length > 0))) {
      side = tokensIn(far);
    }
    for (const token of side.slice(0, WORDS_PER_SIDE)) {
      const found = wordAttaches(token, figure, sentences);
      if (found === null) continue;
      if (found.attaches) return { raw: figure.raw, verdict: "attached" };
      against ??= `"${token}" goes with ${found.other}`;
    }
  }
  if (against !== undefined) return { raw: figure.raw, verdict: "swapped", reason: against };
  return { raw: figure.raw, verdict: "attached" };
}

/** Figures checked per answer: enough for any answer a person reads. */
const MAX_FIGURES = 32;

/** The attachment of every figure the claims state, in order (at most MAX_FIGURES). */
export function attachNumbers(claims: string, contexts: readonly string[]): AttachedNumber[] {
  let sentences: ContextSentence[] | undefined;
  const out: AttachedNumber[] = [];
  for (const sentence of splitSentences(blankCitationMarkers(claims))) {
    const text = sentence.text.normalize("NFKC");
    const figures = figuresOf(text);
    // Contexts are read only for an answer that states a figure.
    if (figures.length > 0) sentences ??= contextSentences(contexts);
    for (let i = 0; i < figures.length && out.length < MAX_FIGURES; i++) {
      out.push(attach(text, figures, i, sentences as ContextSentence[]));
    }
  }
  return out;
}
