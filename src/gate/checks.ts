// Seed 004 §4: each check is one explainable assertion about an answer, a pure function of the
// input and the configuration (`check_xxx(*, input) -> EvaluationCheck`). A violated assertion
// yields the check's configured `severity`; a check with nothing to judge says `skipped` and why.

import { AnswerAnalysis } from "./analysis.js";
import {
  extractNodeIds,
  matchesWholly,
  missingTokens,
  sentenceSupport,
  supportReaches,
} from "./measures.js";
import type {
  CheckName,
  CheckStatus,
  EvaluationCheck,
  EvaluatorInput,
  GateConfig,
} from "./schema.js";

/**
 * Seed 004's `check_xxx(*, input) -> EvaluationCheck`, plus the config. `analysis` lets
 * evaluateGate tokenize an answer and its hits once for all checks; alone, a check makes its own.
 */
export type GateCheck = (
  input: EvaluatorInput,
  config: GateConfig,
  analysis?: AnswerAnalysis,
) => EvaluationCheck;

/** Sentences quoted in a detail are cut to this many characters. */
const QUOTE_CHARS = 120;
/** Lists in a detail (unknown ids, unsupported sentences...) keep at most this many items. */
const MAX_LISTED = 20;

function outcome(name: CheckName, status: CheckStatus, detail: Record<string, unknown>) {
  return { name, status, detail };
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= QUOTE_CHARS ? flat : `${flat.slice(0, QUOTE_CHARS - 1)}…`;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Seed 004 §4.2.4: no empty string, whitespace, markers alone or template text such as "TODO". */
export const checkNoEmptyAnswer: GateCheck = (
  input,
  config,
  analysis = new AnswerAnalysis(input),
) => {
  const { severity, template_patterns } = config.checks.no_empty_answer;
  const prose = analysis.prose;
  if (prose.length === 0) {
    const reason =
      input.generation_output.answer.trim() === "" ? "empty answer" : "only citation markers";
    return outcome("no_empty_answer", severity, { reason });
  }
  if (matchesWholly(prose, template_patterns)) {
    const pattern = template_patterns.find((p) => matchesWholly(prose, [p]));
    return outcome("no_empty_answer", severity, {
      reason: "template answer",
      pattern,
      answer: quote(prose),
    });
  }
  return outcome("no_empty_answer", "pass", { chars: analysis.proseChars });
};

/**
 * Seed 004 §4.2.1: the answer cites evidence, in `citations` or as inline markers. An answer that
 * declines to answer has nothing to cite, so the check is skipped for it.
 */
export const checkRequireCitations: GateCheck = (
  input,
  config,
  analysis = new AnswerAnalysis(input),
) => {
  const { severity } = config.checks.require_citations;
  const citations = input.generation_output.citations.length;
  const markers = analysis.markers.length;
  if (citations > 0 || markers > 0)
    return outcome("require_citations", "pass", { citations, markers });
  if (analysis.prose.length === 0) {
    return outcome("require_citations", "skipped", { reason: "empty answer: nothing to cite" });
  }
  if (analysis.abstains(config.checks.honest_abstention.abstention_patterns)) {
    return outcome("require_citations", "skipped", {
      reason: "the answer abstains (abstention_patterns): nothing to cite",
    });
  }
  return outcome("require_citations", severity, {
    reason: "no citations and no inline citation markers",
    citations: 0,
    markers: 0,
  });
};

/** Seed 004 §4.2.2: the cited node_ids are among the retrieval hits (citations ⊆ hits). */
export const checkCitationCoverage: GateCheck = (input, config) => {
  const { severity, threshold } = config.checks.citation_coverage;
  const cited = extractNodeIds(input.generation_output.citations);
  if (cited.size === 0) return outcome("citation_coverage", "skipped", { reason: "no citations" });
  const known = extractNodeIds(input.retrieval_hits);
  const unknown = [...cited].filter((id) => !known.has(id));
  const score = (cited.size - unknown.length) / cited.size;
  return outcome("citation_coverage", score < threshold ? severity : "pass", {
    score,
    threshold,
    cited: cited.size,
    unknown: unknown.slice(0, MAX_LISTED),
  });
};

/** Seed 004 §4.2.3: the answer, normalized and without markers, has at least `min_chars` characters. */
export const checkMinAnswerLength: GateCheck = (
  input,
  config,
  analysis = new AnswerAnalysis(input),
) => {
  const { severity, min_chars } = config.checks.min_answer_length;
  const chars = analysis.proseChars;
  return outcome("min_answer_length", chars < min_chars ? severity : "pass", { chars, min_chars });
};

/** Every inline marker designates a hit: by exact node_id, else by 1-based position. */
export const checkCitationMarkers: GateCheck = (
  input,
  config,
  analysis = new AnswerAnalysis(input),
) => {
  const { severity } = config.checks.citation_markers;
  if (analysis.markers.length === 0) {
    return outcome("citation_markers", "skipped", { reason: "no inline citation markers" });
  }
  const { hitsByRef, unresolved } = analysis.resolution;
  const refs = hitsByRef.size + unresolved.length;
  return outcome("citation_markers", unresolved.length > 0 ? severity : "pass", {
    score: hitsByRef.size / refs,
    markers: analysis.markers.length,
    refs,
    unresolved: unresolved.slice(0, MAX_LISTED),
  });
};

/**
 * Each claim-sized sentence is lexically grounded in the hits it cites (all hits when it cites
 * none). Sentences that decline to answer make no claim and are not judged.
 */
export const checkSentenceSupport: GateCheck = (
  input,
  config,
  analysis = new AnswerAnalysis(input),
) => {
  const { severity, min_token_support, min_sentence_tokens, max_unsupported_ratio } =
    config.checks.sentence_support;
  if (input.retrieval_hits.length === 0) {
    return outcome("sentence_support", "skipped", { reason: "no retrieval hits" });
  }
  const abstaining = analysis.abstainingSentences(
    config.checks.honest_abstention.abstention_patterns,
  );
  let judged = 0;
  let supported = 0;
  let short = 0;
  let declining = 0;
  const unsupported: Record<string, unknown>[] = [];
  analysis.sentences.forEach((sentence, i) => {
    if (abstaining[i]) {
      declining++;
      return;
    }
    const tokens = analysis.tokensOf(sentence);
    if (tokens.length < min_sentence_tokens) {
      short++;
      return;
    }
    judged++;
    const evidence = analysis.evidence(sentence.citedHits);
    if (supportReaches(tokens, evidence, min_token_support)) {
      supported++;
      return;
    }
    if (unsupported.length < MAX_LISTED) {
      const support = sentenceSupport(tokens, evidence);
      unsupported.push({
        sentence: quote(sentence.plain),
        support: round(support),
        missing: missingTokens(tokens, evidence).slice(0, 8),
        evidence:
          sentence.citedHits === undefined
            ? "all hits"
            : sentence.citedHits.map((h) => input.retrieval_hits[h]?.node_id),
      });
    }
  });
  if (judged === 0) {
    return outcome("sentence_support", "skipped", {
      reason: `no sentence with at least ${min_sentence_tokens} content tokens that makes a claim`,
      short_sentences: short,
      abstaining_sentences: declining,
    });
  }
  const unsupportedCount = judged - supported;
  const ratio = unsupportedCount / judged;
  const status: CheckStatus =
    ratio > max_unsupported_ratio ? severity : unsupportedCount > 0 ? "warn" : "pass";
  return outcome("sentence_support", status, {
    score: supported / judged,
    judged,
    supported,
    unsupported_ratio: round(ratio),
    min_token_support,
    max_unsupported_ratio,
    unsupported,
    short_sentences: short,
    abstaining_sentences: declining,
  });
};

/**
 * Every number and date the answer states occurs, normalized, in the evidence of its sentence
 * (the hits its markers cite, else all hits): "1,200" matches "1200", "3.50" matches "3.5".
 */
export const checkNumericConsistency: GateCheck = (
  input,
  config,
  analysis = new AnswerAnalysis(input),
) => {
  const { severity } = config.checks.numeric_consistency;
  const abstaining = analysis.abstainingSentences(
    config.checks.honest_abstention.abstention_patterns,
  );
  let total = 0;
  const missing: Record<string, unknown>[] = [];
  let missingCount = 0;
  const hasHits = input.retrieval_hits.length > 0;
  analysis.sentences.forEach((sentence, i) => {
    if (abstaining[i]) return;
    const numbers = analysis.numbersOf(sentence);
    if (numbers.length === 0 || !hasHits) {
      total += numbers.length;
      return;
    }
    const evidence = analysis.evidence(sentence.citedHits);
    for (const number of numbers) {
      total++;
      if (evidence.states(number)) continue;
      missingCount++;
      if (missing.length < MAX_LISTED) {
        missing.push({ raw: number.raw, value: number.value, sentence: quote(sentence.plain) });
      }
    }
  });
  if (total === 0) {
    return outcome("numeric_consistency", "skipped", { reason: "the answer states no numbers" });
  }
  if (!hasHits) {
    return outcome("numeric_consistency", "skipped", {
      reason: "no retrieval hits to compare numbers with",
      numbers: total,
    });
  }
  return outcome("numeric_consistency", missingCount > 0 ? severity : "pass", {
    score: (total - missingCount) / total,
    numbers: total,
    missing,
  });
};

/**
 * With no evidence at all the honest answer is a refusal: an abstention passes, a confident answer
 * is flagged. With evidence the other checks judge the answer, and this one is skipped.
 */
export const checkHonestAbstention: GateCheck = (
  input,
  config,
  analysis = new AnswerAnalysis(input),
) => {
  const { severity, abstention_patterns } = config.checks.honest_abstention;
  const abstains = analysis.abstains(abstention_patterns);
  if (input.retrieval_hits.length > 0) {
    return outcome("honest_abstention", "skipped", { reason: "retrieval returned hits", abstains });
  }
  if (analysis.prose.length === 0) {
    return outcome("honest_abstention", "skipped", {
      reason: "empty answer (see no_empty_answer)",
    });
  }
  if (abstains) return outcome("honest_abstention", "pass", { abstains });
  return outcome("honest_abstention", severity, {
    reason: "confident answer without any retrieved evidence",
    abstains,
  });
};

/** Every check, in the order they run and appear in a verdict. */
export const GATE_CHECKS: ReadonlyArray<readonly [CheckName, GateCheck]> = [
  ["no_empty_answer", checkNoEmptyAnswer],
  ["require_citations", checkRequireCitations],
  ["citation_coverage", checkCitationCoverage],
  ["min_answer_length", checkMinAnswerLength],
  ["citation_markers", checkCitationMarkers],
  ["sentence_support", checkSentenceSupport],
  ["numeric_consistency", checkNumericConsistency],
  ["honest_abstention", checkHonestAbstention],
];
