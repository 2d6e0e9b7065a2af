// Lexical groundedness: how much of what an answer says the retrieved contexts also say. Built on
// text/'s content tokens and its substring search (containsContentToken), the measures the gate's
// sentence_support and numeric_consistency checks use, so a token counts as supported here exactly
// when the gate would find it in a hit. Evidence is searched, never tokenized: segmenting Chinese
// costs about 1 µs per character, and contexts are long.

import {
  blankCitationMarkers,
  containsContentToken,
  evidenceNumberValues,
  extractNumbers,
  foldForSearch,
  forEachContentToken,
  isAscii,
  type NumberMention,
  stripCitationMarkers,
} from "../../text/index.js";

/** What a text states: its distinct content tokens and its distinct numbers, in order. */
export interface StatedFacts {
  tokens: readonly string[];
  numbers: readonly NumberMention[];
  /** Every content token in order, repeats kept. */
  sequence: readonly string[];
}

/** The facts of `text`, citation markers left out ("[lanting-history#1]" is no claim). */
export function statedFacts(text: string): StatedFacts {
  const plain = stripCitationMarkers(text);
  const sequence: string[] = [];
  forEachContentToken(plain, (token) => sequence.push(token));
  const values = new Set<string>();
  const numbers: NumberMention[] = [];
  for (const mention of extractNumbers(plain)) {
    if (values.has(mention.value)) continue;
    values.add(mention.value);
    numbers.push(mention);
  }
  return { tokens: [...new Set(sequence)], numbers, sequence };
}

/** Whatever can say whether it holds a content token and states a number. */
export interface Evidence {
  has(token: string): boolean;
  states(mention: NumberMention): boolean;
}

/**
 * Texts as one body of evidence. Each answer is remembered, so asking again (the same answer
 * against contexts and then contexts plus ground truth) costs a map lookup.
 */
export class EvidenceText implements Evidence {
  private readonly raw: string;
  private folded: string | undefined;
  private plain: string | undefined;
  private values: Set<string> | undefined;
  private readonly tokens = new Map<string, boolean>();
  private readonly numbers = new Map<string, boolean>();

  constructor(texts: readonly string[]) {
    // Line breaks keep a word at the end of one text from running into the next.
    this.raw = texts.join("\n");
  }

  has(token: string): boolean {
    let found = this.tokens.get(token);
    if (found === undefined) {
      this.folded ??= foldForSearch(this.raw);
      found = containsContentToken(this.folded, token);
      this.tokens.set(token, found);
    }
    return found;
  }

  /** Whether the evidence states the number: spelled as in the answer, else in any spelling. */
  states(mention: NumberMention): boolean {
    const key = `${mention.value}\u0000${mention.raw}`;
    let found = this.numbers.get(key);
    if (found === undefined) {
      this.plain ??= blankCitationMarkers(
        isAscii(this.raw) ? this.raw : this.raw.normalize("NFKC"),
      );
      this.values ??= evidenceNumberValues(this.plain);
      found = this.values.has(mention.value);
      this.numbers.set(key, found);
    }
    return found;
  }
}

/** Several bodies of evidence as one: a token or number found in any. */
export function anyEvidence(...bodies: readonly Evidence[]): Evidence {
  return {
    has: (token) => bodies.some((body) => body.has(token)),
    states: (mention) => bodies.some((body) => body.states(mention)),
  };
}

export interface Groundedness {
  /** Share of the text's distinct content tokens found in the evidence; null when it has none. */
  score: number | null;
  /** Distinct content tokens (stopwords, bare digits and citation markers left out). */
  tokens: number;
  supported_tokens: number;
  /** Distinct content tokens the question does not contain: what the text adds to it. */
  added_tokens: number;
  supported_added_tokens: number;
  /** Distinct numbers and dates the text states, except those the question states. */
  numbers: number;
  /** Those the evidence states too, in any spelling ("1,200" = "1200", "2021" ⊂ "2021-03-05"). */
  supported_numbers: number;
  /** Added tokens and numbers the evidence lacks, as found, at most MAX_UNSUPPORTED. */
  unsupported: string[];
}

export const MAX_UNSUPPORTED = 8;

/**
 * Groundedness of stated facts in `evidence` (the retrieved contexts, or any texts taken as true).
 * With `question`, tokens and numbers the question already contains are set apart: "Lanting" in
 * an answer about Lanting says nothing, so `added_tokens` measures what the text contributes.
 */
export function groundednessOf(
  facts: StatedFacts,
  evidence: Evidence,
  question?: Evidence,
): Groundedness {
  const unsupported: string[] = [];
  let supported = 0;
  let added = 0;
  let supportedAdded = 0;
  for (const token of facts.tokens) {
    const found = evidence.has(token);
    if (found) supported++;
    if (question?.has(token)) continue;
    added++;
    if (found) supportedAdded++;
    else if (unsupported.length < MAX_UNSUPPORTED) unsupported.push(token);
  }
  let numbers = 0;
  let supportedNumbers = 0;
  for (const mention of facts.numbers) {
    if (question?.states(mention)) continue;
    numbers++;
    if (evidence.states(mention)) supportedNumbers++;
    else if (unsupported.length < MAX_UNSUPPORTED) unsupported.push(mention.raw);
  }
  const total = facts.tokens.length;
  return {
    score: total > 0 ? supported / total : null,
    tokens: total,
    supported_tokens: supported,
    added_tokens: added,
    supported_added_tokens: supportedAdded,
    numbers,
    supported_numbers: supportedNumbers,
    unsupported,
  };
}

/** Groundedness of `text` in `contexts`; see groundednessOf. */
export function groundedness(
  text: string,
  contexts: readonly string[],
  question?: string,
): Groundedness {
  return groundednessOf(
    statedFacts(text),
    new EvidenceText(contexts),
    question === undefined ? undefined : new EvidenceText([question]),
  );
}

/** A number weighs as much as two words: "1784" is a whole fact, "Wei Chenghai" two tokens. */
export const NUMBER_WEIGHT = 2;

/** What a text adds to the question, in units: added tokens plus NUMBER_WEIGHT per number. */
export function addedUnits(measure: Groundedness): number {
  return measure.added_tokens + NUMBER_WEIGHT * measure.numbers;
}

/** The units of addedUnits that the evidence supports. */
export function supportedUnits(measure: Groundedness): number {
  return measure.supported_added_tokens + NUMBER_WEIGHT * measure.supported_numbers;
}

/**
 * Share of what the text adds to the question that the evidence supports, tokens and numbers
 * together (see NUMBER_WEIGHT), in [0, 1]; null when it adds nothing measurable.
 */
export function addedSupport(measure: Groundedness): number | null {
  const total = addedUnits(measure);
  return total === 0 ? null : supportedUnits(measure) / total;
}
