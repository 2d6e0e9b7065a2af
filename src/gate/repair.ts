// The guardrail's repair: the answer with what the gate could not find in the evidence taken out.
// It uses the same measurements as the checks (AnswerAnalysis), so a sentence is removed exactly
// when sentence_support or numeric_consistency would count it against the answer.

import { type MarkerSpan, splitSentences } from "../text/index.js";
import { AnswerAnalysis } from "./analysis.js";
import { sentenceSupport, supportReaches } from "./measures.js";
import type { Citation, EvaluatorInput, GateConfig } from "./schema.js";

export interface RemovedSentence {
  sentence: string;
  /** Why: its words are not in the passages it cites, or a figure it states is not. */
  reason: "unsupported" | "unsupported_figure";
  /** The figures not found, for `unsupported_figure`. */
  figures?: string[];
}

export interface Repair {
  answer: string;
  citations: Citation[];
  removed: RemovedSentence[];
  /** Citation markers taken out because they name no retrieved passage and no hit supports their sentence (one that does is re-pointed to it). */
  removed_markers: string[];
  /** Markers that named no hit, re-pointed to the hit that supports their sentence. */
  repointed_markers: { from: string; to: string }[];
  /** Citations taken out because their node_id is not among the hits. */
  removed_citations: string[];
  /** Whether anything changed. */
  changed: boolean;
}

/** Why the sentence at `i` should go, or undefined to keep it. */
function faultOf(
  analysis: AnswerAnalysis,
  config: GateConfig,
  i: number,
): Omit<RemovedSentence, "sentence"> | undefined {
  const sentence = analysis.sentences[i];
  if (sentence === undefined || analysis.hits.length === 0) return undefined;
  const evidence = analysis.evidence(sentence.citedHits);
  const numeric = config.checks.numeric_consistency;
  if (numeric.enabled) {
    const figures = analysis
      .numbersOf(sentence)
      .filter((n) => !evidence.states(n))
      .map((n) => n.raw);
    if (figures.length > 0) return { reason: "unsupported_figure", figures };
  }
  const support = config.checks.sentence_support;
  if (support.enabled) {
    const tokens = analysis.tokensOf(sentence);
    if (
      tokens.length >= support.min_sentence_tokens &&
      !supportReaches(tokens, evidence, support.min_token_support)
    ) {
      return { reason: "unsupported" };
    }
  }
  return undefined;
}

/** [start, end) of the answer and what replaces it ("" to cut). */
type Edit = readonly [start: number, end: number, replacement: string];

/** `text` with the edits applied (sorted, not overlapping), spaces tidied where cut. */
function edited(text: string, edits: readonly Edit[]): string {
  let out = "";
  let at = 0;
  for (const [start, end, replacement] of edits) {
    out += text.slice(at, start) + replacement;
    at = end;
  }
  out += text.slice(at);
  return out
    .replace(/[ \t]+(?=[.,;:!?。，；：！？]|$)/gm, "")
    .replace(/[ \t]{2,}/g, " ")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The answer with unsupported sentences (and sentences stating unsupported figures) removed,
 * markers that name no hit stripped, and citations limited to the hits. Sentences that decline
 * to answer are kept: they make no claim.
 */
export function repairAnswer(input: EvaluatorInput, config: GateConfig): Repair {
  const answer = input.generation_output.answer;
  const analysis = new AnswerAnalysis(input);
  const abstaining = analysis.abstainingSentences(
    config.checks.honest_abstention.abstention_patterns,
  );
  const raw = splitSentences(answer);
  const { unresolved } = analysis.resolution;
  const edits: Edit[] = [];
  const removed: RemovedSentence[] = [];
  const removedMarkers = new Set<string>();
  const citedByKept = new Set<number>();
  const repointed: { from: string; to: string }[] = [];

  raw.forEach((sentence, i) => {
    const fault = abstaining[i] ? undefined : faultOf(analysis, config, i);
    if (fault !== undefined) {
      removed.push({ sentence: sentence.text, ...fault });
      edits.push([sentence.start, sentence.end, ""]);
      return;
    }
    for (const hit of analysis.sentences[i]?.citedHits ?? []) citedByKept.add(hit);
    for (const span of sentence.markers) {
      if (!span.refs.every((ref) => unresolved.includes(ref))) continue;
      // A marker naming no hit points to the hit that supports its sentence, when one does.
      const best = supportingHit(analysis, config, i);
      if (best !== undefined) {
        citedByKept.add(best);
        const to = `[${input.retrieval_hits[best]?.node_id}]`;
        repointed.push({ from: span.raw, to });
        edits.push([span.start, span.end, to]);
      } else {
        removedMarkers.add(span.raw);
        edits.push([...markerRange(answer, span), ""]);
      }
    }
  });
  edits.sort((a, b) => a[0] - b[0]);

  const known = new Set(input.retrieval_hits.map((h) => h.node_id));
  const citations: Citation[] = [];
  const removedCitations: string[] = [];
  const seen = new Set<string>();
  for (const citation of input.generation_output.citations) {
    if (!known.has(citation.node_id)) removedCitations.push(citation.node_id);
    else if (!seen.has(citation.node_id)) {
      seen.add(citation.node_id);
      citations.push(citation);
    }
  }
  // A marker that resolves to a hit is a citation too; list it when the answer used citations.
  if (input.generation_output.citations.length > 0) {
    for (const hit of [...citedByKept].sort((a, b) => a - b)) {
      const id = input.retrieval_hits[hit]?.node_id;
      if (id !== undefined && !seen.has(id)) {
        seen.add(id);
        citations.push({ node_id: id });
      }
    }
  }

  const repaired = edits.length > 0 ? edited(answer, edits) : answer;
  return {
    answer: repaired,
    citations,
    removed,
    removed_markers: [...removedMarkers],
    repointed_markers: repointed,
    removed_citations: removedCitations,
    changed:
      repaired !== answer ||
      removedCitations.length > 0 ||
      citations.length !== input.generation_output.citations.length,
  };
}

/** The hit that best supports sentence `i` on its own, if it reaches min_token_support. */
function supportingHit(
  analysis: AnswerAnalysis,
  config: GateConfig,
  i: number,
): number | undefined {
  const sentence = analysis.sentences[i];
  if (sentence === undefined) return undefined;
  const tokens = analysis.tokensOf(sentence);
  if (tokens.length === 0) return undefined;
  const { min_token_support } = config.checks.sentence_support;
  let best: number | undefined;
  let bestShare = -1;
  analysis.hits.forEach((_, hit) => {
    const share = sentenceSupport(tokens, analysis.evidence([hit]));
    if (share >= min_token_support && share > bestShare) {
      best = hit;
      bestShare = share;
    }
  });
  return best;
}

/** A marker's range, with the space before it, so "text [x]." becomes "text.". */
function markerRange(text: string, span: MarkerSpan): [number, number] {
  let start = span.start;
  while (start > 0 && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
  return [start, span.end];
}
