// Number anchoring: a figure is supported where the evidence states it next to what the answer
// says it is about. "Line 2 has 19 stations" finds 19 in the contexts, but beside "Line 1", not
// "Line 2"; "opened in 1997" finds 1997 beside the tunnel, not the bridge. Finding a number
// anywhere in the contexts, as the gate's numeric check does, misses these swaps, which are how
// RAG answers most often go wrong with figures.
//
// For each number of an answer sentence: the words and other numbers of that sentence found within
// ANCHOR_WINDOW characters of the number in a context sentence, over the most of them found
// together anywhere in a context sentence (the best the evidence does for that sentence). 1 when
// the number stands where the sentence's other facts do; towards 0 when it stands elsewhere; 0
// when the contexts do not state it.

import {
  blankCitationMarkers,
  contentTokenIndexes,
  contentTokenSet,
  extractNumbers,
  extractNumberWords,
  foldForSearch,
  hasUnspacedScript,
  splitSentences,
  supportedValues,
} from "../../text/index.js";

/** Half the width of the window around a number, in characters (words are longer than Han). */
export const ANCHOR_WINDOW = 60;
export const ANCHOR_WINDOW_UNSPACED = 20;
/** Numbers anchored per answer: enough for any answer a person reads. */
const MAX_NUMBERS = 32;

export interface AnchoredNumber {
  raw: string;
  value: string;
  /** In [0, 1]: how far the contexts state it beside the rest of its sentence; 0 if not at all. */
  anchoring: number;
}

interface Mention {
  raw: string;
  /** Every value the mention supports ("2021-03-05" also supports "2021"). */
  values: readonly string[];
  index: number;
  end: number;
}

function mentionsOf(text: string): Mention[] {
  const found: Mention[] = extractNumbers(text).map((m) => ({
    raw: m.raw,
    values: supportedValues(m),
    index: m.index,
    end: m.end,
  }));
  for (const word of extractNumberWords(text)) {
    if (found.some((m) => word.index < m.end && word.end > m.index)) continue;
    found.push({ raw: word.raw, values: [word.value], index: word.index, end: word.end });
  }
  return found;
}

function sameNumber(a: Mention, b: Mention): boolean {
  return a.values.some((value) => b.values.includes(value));
}

/**
 * A context, folded once, with its sentences, its numbers, and the positions of the words asked
 * about (cached: every answer sentence asks about the same context).
 */
class ContextText {
  readonly folded: string;
  /** [start, end) of each sentence. */
  readonly sentences: [number, number][];
  readonly mentions: Mention[];
  private readonly positions = new Map<string, number[]>();

  constructor(text: string) {
    const plain = blankCitationMarkers(text).normalize("NFKC");
    this.folded = foldForSearch(plain);
    this.sentences = splitSentences(plain).map((s) => [s.start, s.end]);
    this.mentions = mentionsOf(plain);
  }

  /** Where the token stands, ascending. */
  tokenAt(token: string): number[] {
    let found = this.positions.get(token);
    if (found === undefined) {
      found = contentTokenIndexes(this.folded, token);
      this.positions.set(token, found);
    }
    return found;
  }

  /** Where the mention's number is stated: [start, end] of each, ascending. */
  numberAt(mention: Mention): [number, number][] {
    const spans: [number, number][] = [];
    for (const m of this.mentions) if (sameNumber(m, mention)) spans.push([m.index, m.end]);
    return spans;
  }
}

/** Index of the first of ascending `positions` at or after `from`. */
function lowerBound(positions: readonly number[], from: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((positions[mid] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function anyWithin(positions: readonly number[], from: number, to: number): boolean {
  const at = lowerBound(positions, from);
  return at < positions.length && (positions[at] as number) < to;
}

/** The positions of ascending `positions` within [from, to). */
function within(positions: readonly number[], from: number, to: number): number[] {
  const lo = lowerBound(positions, from);
  const out: number[] = [];
  for (let i = lo; i < positions.length && (positions[i] as number) < to; i++) {
    out.push(positions[i] as number);
  }
  return out;
}

/** How many of `units` (each a list of positions) have one within [from, to]. */
function unitsWithin(units: readonly (readonly number[])[], from: number, to: number): number {
  let count = 0;
  for (const positions of units) {
    for (const at of positions) {
      if (at >= from && at <= to) {
        count++;
        break;
      }
    }
  }
  return count;
}

/**
 * For each mention (units first..), the most units other than itself any window [c - half,
 * c + half] centred on a unit's position holds: a sliding window over the positions in order.
 */
function bestWindows(
  units: readonly (readonly number[])[],
  first: number,
  half: number,
  best: number[],
): void {
  const events: [number, number][] = [];
  units.forEach((positions, unit) => {
    for (const at of positions) events.push([at, unit]);
  });
  events.sort((a, b) => a[0] - b[0]);
  const counts = new Int32Array(units.length);
  let distinct = 0;
  let lo = 0;
  let hi = 0;
  for (const [center] of events) {
    while (hi < events.length && (events[hi] as [number, number])[0] <= center + half) {
      const unit = (events[hi] as [number, number])[1];
      if (counts[unit] === 0) distinct++;
      counts[unit] = (counts[unit] as number) + 1;
      hi++;
    }
    while ((events[lo] as [number, number])[0] < center - half) {
      const unit = (events[lo] as [number, number])[1];
      counts[unit] = (counts[unit] as number) - 1;
      if (counts[unit] === 0) distinct--;
      lo++;
    }
    for (let i = 0; i < best.length; i++) {
      const own = (counts[first + i] as number) > 0 ? 1 : 0;
      if (distinct - own > (best[i] as number)) best[i] = distinct - own;
    }
  }
}

/** The anchoring of each number of one answer sentence. */
function anchorSentence(text: string, contexts: readonly ContextText[]): AnchoredNumber[] {
  const mentions = mentionsOf(text);
  if (mentions.length === 0) return [];
  const tokens = [...contentTokenSet(text)];
  const half = hasUnspacedScript(text) ? ANCHOR_WINDOW_UNSPACED : ANCHOR_WINDOW;
  const near = mentions.map(() => -1);
  const best = mentions.map(() => 0);
  const first = tokens.length;
  for (const context of contexts) {
    const tokenPositions = tokens.map((token) => context.tokenAt(token));
    const numberSpans = mentions.map((mention) => context.numberAt(mention));
    if (tokenPositions.every((p) => p.length === 0) && numberSpans.every((s) => s.length === 0)) {
      continue;
    }
    for (const [from, to] of context.sentences) {
      const stated = numberSpans.some((list) =>
        list.some(([start]) => start >= from && start < to),
      );
      if (!stated) {
        // A sentence holding no more units than every number's best so far changes nothing.
        let present = 0;
        for (const positions of tokenPositions) if (anyWithin(positions, from, to)) present++;
        let floor = best[0] as number;
        for (const b of best) floor = Math.min(floor, b);
        if (present <= floor) continue;
      }
      const spans = numberSpans.map((list) =>
        list.filter(([start]) => start >= from && start < to),
      );
      const units = [
        ...tokenPositions.map((positions) => within(positions, from, to)),
        ...spans.map((list) => list.map(([start]) => start)),
      ];
      bestWindows(units, first, half, best);
      // The units around each place this sentence states the number, the number itself left out.
      spans.forEach((list, i) => {
        for (const [start, end] of list) {
          near[i] = Math.max(near[i] as number, unitsWithin(units, start - half, end + half) - 1);
        }
      });
    }
  }
  return mentions.map((mention, i) => {
    const n = near[i] as number;
    const b = best[i] as number;
    return {
      raw: mention.raw,
      value: mention.values[0] as string,
      anchoring: n < 0 ? 0 : b === 0 ? 1 : Math.min(1, n / b),
    };
  });
}

/** The anchoring of every number the answer states, in order (at most MAX_NUMBERS). */
export function anchorNumbers(claims: string, contexts: readonly string[]): AnchoredNumber[] {
  const texts = contexts.map((context) => new ContextText(context));
  const anchored: AnchoredNumber[] = [];
  // A sentence said twice is anchored once.
  const seen = new Map<string, AnchoredNumber[]>();
  for (const sentence of splitSentences(blankCitationMarkers(claims))) {
    const text = sentence.text.normalize("NFKC");
    let numbers = seen.get(text);
    if (numbers === undefined) {
      numbers = anchorSentence(text, texts);
      seen.set(text, numbers);
    }
    for (const number of numbers) {
      if (anchored.length >= MAX_NUMBERS) return anchored;
      anchored.push(number);
    }
  }
  return anchored;
}

/**
 * Groundedness of an answer in one number: its supported content tokens and its numbers weighted
 * by their anchoring (a number as much as two words, as in NUMBER_WEIGHT), over all of them.
 * Null when the answer states neither.
 */
export function anchoredGroundedness(
  tokens: number,
  supportedTokens: number,
  numbers: readonly AnchoredNumber[],
  numberWeight: number,
): number | null {
  const total = tokens + numberWeight * numbers.length;
  if (total === 0) return null;
  const anchored = numbers.reduce((sum, number) => sum + number.anchoring, 0);
  return (supportedTokens + numberWeight * anchored) / total;
}
