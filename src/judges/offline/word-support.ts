// Word support: how much of what an answer claims the contexts leave unsaid, in one number.
// Developed on public, human-labelled data (BEGIN, issue 26), where the share of an answer's
// words found in the knowledge ("token precision") was a better groundedness score than the
// judge's content tokens. These beat it there, each general rather than about one corpus:
//
// - every word counts, function words too: "I", "my", "you" are the words of an opinion or a
//   personal story, which no retrieved text supports; dropping them as stopwords lost that;
// - unsupported words count by number, scaled by the square root of the answer's length, not by
//   their share: two unsupported words in a long answer are still two claims nobody supports,
//   where a share lets a long answer dilute them;
// - a first- or second-person word the contexts do not hold weighs more (PERSONAL_WEIGHT):
//   it marks a statement about the speaker or the reader, not about the documents;
// - a question asserts nothing: question sentences are no claims, and each costs the answer
//   (QUESTION_COST), since an answer that asks back has not answered from the contexts;
// - a pair of adjacent words the contexts never write together costs a little (PAIR_WEIGHT): a
//   reworded or recombined claim; and a figure swapped or unstated (number-attachment.ts) costs
//   MISATTACHED_WEIGHT words.
//
// `npm run bench -- judges-public` prints what each of these adds (its ablation).
//
// score = exp(-(cost / words^LENGTH_EXPONENT + QUESTION_COST × questions) / SCORE_SCALE), where
// cost is the unsupported distinct words (personal ones weighing 1 + PERSONAL_WEIGHT), the
// unsupported pairs and the misattached figures. 1 when every word and pair is in the contexts;
// 0 for nothing but questions.

import { isStopword, splitSentences, stripCitationMarkers } from "../../text/index.js";
import { baselineWords } from "./baselines.js";

/** The components of word support, each switchable (the public bench's ablation turns each off). */
export interface WordSupportOptions {
  /** Count function words ("the", "I", "的"), not only content words. Default true. */
  functionWords?: boolean;
  /** Scale unsupported words by words^0.5 (true) or take their share (false). Default true. */
  lengthScaling?: boolean;
  /** Weigh unsupported first- and second-person words more. Default true. */
  personalWords?: boolean;
  /** Treat questions as no claims, and charge each. Default true. */
  questions?: boolean;
  /** Charge PAIR_WEIGHT per pair of adjacent words the contexts never write together. Default true. */
  wordPairs?: boolean;
}

export const LENGTH_EXPONENT = 0.5;
export const PERSONAL_WEIGHT = 2;
export const QUESTION_COST = 1;
export const PAIR_WEIGHT = 0.1;
/** A swapped or unstated figure costs as much as this many unsupported words. */
export const MISATTACHED_WEIGHT = 4;
/**
 * The cost is divided by this before the exponential, so the score reads near a share: 16 words
 * with one unsupported score exp(-1/16) ≈ 0.94. It changes no ranking.
 */
export const SCORE_SCALE = 4;

/** First- and second-person words, English (contractions as supportWords joins them) and CJK. */
const PERSONAL: ReadonlySet<string> = new Set(
  (
    "i me my mine myself we us our ours ourselves you your yours yourself yourselves " +
    "im ive youre youve youd youll weve " +
    "我 你 您 咱"
  ).split(" "),
);

export interface WordSupport {
  /** Distinct words of the answer's claims. */
  words: number;
  /** Of them, those the contexts do not hold (up to 8 listed in `unsupported`). */
  unsupported_words: number;
  /** Unsupported first- or second-person words ("I", "my", "you"). */
  unsupported_personal: number;
  /** Question sentences: no claims, each charged. */
  questions: number;
  unsupported: string[];
  /** In (0, 1]; null when the claims hold no word and there is no question. */
  score: number | null;
}

const QUESTION_END = /[?？]\s*$/u;

/** The sentences of `claims` that ask rather than state, and the text of the rest. */
export function splitQuestions(claims: string): { statements: string; questions: number } {
  if (!claims.includes("?") && !claims.includes("？")) return { statements: claims, questions: 0 };
  let questions = 0;
  const kept: string[] = [];
  for (const sentence of splitSentences(claims)) {
    if (QUESTION_END.test(sentence.text)) questions++;
    else kept.push(sentence.text);
  }
  return { statements: kept.join("\n"), questions };
}

// "it's" and "don't" are one word each, as the contexts write them: split at the apostrophe, "s"
// and "t" would be words found in any text.
const APOSTROPHE = /(?<=\p{L})['’](?=\p{L})/gu;

/**
 * The words word support reads: baselineWords, with apostrophes inside words joined and citation
 * markers ("[lanting-history#1]") left out: they are no claim.
 */
export function supportWords(text: string): string[] {
  return baselineWords(stripCitationMarkers(text).replace(APOSTROPHE, ""));
}

/** The contexts' words and pairs of adjacent words, read once per call. */
export interface WordEvidence {
  words: ReadonlySet<string>;
  pairs: ReadonlySet<string>;
}

export function evidenceWords(contexts: readonly string[]): WordEvidence {
  const words = new Set<string>();
  const pairs = new Set<string>();
  for (const context of contexts) {
    const sequence = supportWords(context);
    for (let i = 0; i < sequence.length; i++) {
      words.add(sequence[i] as string);
      if (i > 0) pairs.add(`${sequence[i - 1]} ${sequence[i]}`);
    }
  }
  return { words, pairs };
}

/** Word support of the answer's claims (declining sentences already left out) in the contexts. */
export function wordSupport(
  claims: string,
  evidence: WordEvidence,
  options: WordSupportOptions = {},
  /** Figures the contexts do not state, or give to something else (number-attachment.ts). */
  misattached = 0,
): WordSupport {
  const functionWords = options.functionWords ?? true;
  const lengthScaling = options.lengthScaling ?? true;
  const personalWords = options.personalWords ?? true;
  const split =
    options.questions === false ? { statements: claims, questions: 0 } : splitQuestions(claims);
  const sequence = supportWords(split.statements);
  const distinct = new Set(sequence);
  let words = 0;
  let unsupportedWords = 0;
  let personal = 0;
  const unsupported: string[] = [];
  for (const word of distinct) {
    if (!functionWords && isStopword(word)) continue;
    const isPersonal = PERSONAL.has(word);
    words++;
    if (evidence.words.has(word)) continue;
    unsupportedWords++;
    if (isPersonal) personal++;
    if (unsupported.length < 8) unsupported.push(word);
  }
  const result = {
    words,
    unsupported_words: unsupportedWords,
    unsupported_personal: personal,
    questions: split.questions,
    unsupported,
  };
  if (words === 0 && split.questions === 0) return { ...result, score: null };
  // Nothing but questions: nothing asserted, so nothing the contexts support.
  if (words === 0) return { ...result, score: 0 };
  let unsupportedPairs = 0;
  if (options.wordPairs !== false) {
    const pairs = new Set<string>();
    for (let i = 1; i < sequence.length; i++) pairs.add(`${sequence[i - 1]} ${sequence[i]}`);
    for (const pair of pairs) if (!evidence.pairs.has(pair)) unsupportedPairs++;
  }
  const cost =
    unsupportedWords +
    (personalWords ? PERSONAL_WEIGHT * personal : 0) +
    PAIR_WEIGHT * unsupportedPairs +
    MISATTACHED_WEIGHT * misattached;
  const scaled = cost / (lengthScaling ? words ** LENGTH_EXPONENT : words);
  return {
    ...result,
    score: Math.exp(-(scaled + QUESTION_COST * split.questions) / SCORE_SCALE),
  };
}
