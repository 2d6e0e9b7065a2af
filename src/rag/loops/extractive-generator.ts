// The generator used when no LLM is configured: the answer is the retrieved sentences that best
// cover the question's content words, quoted verbatim, each followed by its chunk's marker.

import type { PromptLanguage } from "../../judges/index.js";
import { truncateChars } from "../../judges/index.js";
import {
  contentTokenSet,
  contentTokens,
  hasUnspacedScript,
  normalizeText,
  splitSentences,
  stripCitationMarkers,
} from "../../text/index.js";
import type { RetrievedHit } from "../types.js";
import { EXTRACTIVE_ABSTENTION } from "./answer-loop.prompts.js";
import { citationRef } from "./citations.js";

export interface ExtractiveOptions {
  /** Sentences in the answer (config answer.extractive_sentences). */
  maxSentences: number;
  language: PromptLanguage;
  /** Suggestions of a failed review: sentences they quote are left out of the revision. */
  suggestions?: readonly string[];
  /** A sentence longer than this is cut (with "…"). */
  maxSentenceChars?: number;
}

export interface ExtractedSentence {
  text: string;
  node_id: string;
  ref: string;
  /** Share of the question's content words the sentence contains. */
  support: number;
}

export interface ExtractiveAnswer {
  answer: string;
  sentences: ExtractedSentence[];
  /** Distinct node_ids cited, in the answer's order. */
  citations: string[];
}

interface Candidate extends ExtractedSentence {
  /** The question words it contains, for weighing them by how rare they are among the hits. */
  matched: string[];
  rank: number;
  position: number;
  key: string;
}

/**
 * Whether a sentence contains a query word: the same content token; for CJK, the word anywhere in
 * the sentence (segmentation depends on context, as the gate's sentence_support also allows); for
 * longer Latin words, a shared stem by prefix ("destroy" and "destroyed").
 */
function sentenceHas(tokens: ReadonlySet<string>, lower: string, word: string): boolean {
  if (tokens.has(word)) return true;
  if (hasUnspacedScript(word)) return lower.includes(word);
  if (word.length < 4) return false;
  for (const token of tokens) {
    if (token.length >= 4 && (token.startsWith(word) || word.startsWith(token))) return true;
  }
  return false;
}

const TRAILING_STOP = /([.!?。！？；;]["'”’」』）)]*)$/u;

/** The sentence with its marker before the final stop: "… town hall [n2]." / "…建筑[z1]。". */
function withMarker(text: string, ref: string, language: PromptLanguage): string {
  const marker = language === "zh" ? `[${ref}]` : ` [${ref}]`;
  const stop = TRAILING_STOP.exec(text);
  if (stop === null) return `${text}${marker}`;
  return `${text.slice(0, stop.index)}${marker}${stop[1]}`;
}

/** The first characters of a sentence as a review would quote it, for matching suggestions. */
function quoteKey(text: string): string {
  return normalizeText(text).slice(0, 60);
}

/**
 * Best-supported sentences first, each question word weighed by how rare it is among the
 * retrieved sentences; ties go to the better-ranked hit, then the earlier sentence.
 * Without any overlap the answer abstains, so it never claims what the chunks do not say.
 */
export function extractiveAnswer(
  question: string,
  hits: readonly RetrievedHit[],
  options: ExtractiveOptions,
): ExtractiveAnswer {
  const maxChars = options.maxSentenceChars ?? 400;
  const queryTokens = contentTokenSet(question);
  const excluded = (options.suggestions ?? []).map((s) => normalizeText(s));
  const candidates: Candidate[] = [];
  // How many sentences hold each question word: a word most of them share (the city every
  // passage is about, "澜汀") says less about which sentence answers than a rare one ("小吃").
  const frequency = new Map<string, number>();
  let sentenceCount = 0;
  hits.forEach((hit, rank) => {
    const content = stripCitationMarkers(hit.content);
    const sentences = splitSentences(content);
    sentences.forEach((sentence, position) => {
      const text = sentence.text.trim();
      if (text.length === 0) return;
      const tokens = contentTokens(text);
      if (tokens.length === 0) return;
      const own = new Set(tokens);
      const lower = text.toLowerCase();
      const matched = [...queryTokens].filter((token) => sentenceHas(own, lower, token));
      sentenceCount++;
      for (const token of matched) frequency.set(token, (frequency.get(token) ?? 0) + 1);
      const support = queryTokens.size > 0 ? matched.length / queryTokens.size : 0;
      if (support === 0) return;
      const key = quoteKey(text);
      if (excluded.some((suggestion) => key.length > 0 && suggestion.includes(key))) return;
      candidates.push({
        text: truncateChars(text, maxChars),
        node_id: hit.node_id,
        ref: citationRef(hit, rank),
        support,
        matched,
        rank,
        position,
        key,
      });
    });
  });
  const weight = (c: Candidate) =>
    c.matched.reduce(
      (sum, token) => sum + Math.log(1 + sentenceCount / (frequency.get(token) ?? 1)),
      0,
    );
  const weights = new Map(candidates.map((c) => [c, weight(c)]));
  candidates.sort(
    (a, b) =>
      (weights.get(b) as number) - (weights.get(a) as number) ||
      b.support - a.support ||
      a.rank - b.rank ||
      a.position - b.position,
  );
  const chosen: ExtractedSentence[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (chosen.length >= options.maxSentences) break;
    if (seen.has(candidate.key)) continue;
    seen.add(candidate.key);
    const { text, node_id, ref, support } = candidate;
    chosen.push({ text, node_id, ref, support });
  }
  if (chosen.length === 0) {
    return { answer: EXTRACTIVE_ABSTENTION[options.language], sentences: [], citations: [] };
  }
  const separator = options.language === "zh" ? "" : " ";
  const answer = chosen.map((s) => withMarker(s.text, s.ref, options.language)).join(separator);
  const citations: string[] = [];
  for (const s of chosen) if (!citations.includes(s.node_id)) citations.push(s.node_id);
  return { answer, sentences: chosen, citations };
}
