// The claims judge without an LLM: sentences stand in for claims and word support
// (offline/word-support.ts) for the entailment check. Every verdict says so
// (OFFLINE_APPROXIMATION): a sentence is coarser than RAGChecker's claims, and word support finds
// a claim's words, not its meaning, so these numbers approximate RAGChecker's, never equal them.

import { splitSentences, stripCitationMarkers } from "../../text/index.js";
import { DEFAULT_JUDGES_CONFIG, type JudgesConfig } from "../config.js";
import { promptLanguage } from "../language.js";
import { attachNumbers, evidenceWords, supportWords, wordSupport } from "../offline/index.js";
import { referencesOf } from "../references.js";
import { type JudgeScore, parseJudgeInput, round } from "../result.js";
import type { ClaimVerdict } from "./metrics.js";
import {
  type ClaimsInput,
  ClaimsInputSchema,
  type ClaimsVerdict,
  chunkText,
  claimsVerdict,
  OFFLINE_APPROXIMATION,
} from "./verdict.js";

export const CLAIMS_OFFLINE_MODEL = "offline-sentences";

export type OfflineClaimsResult = JudgeScore<"claims_offline", ClaimsVerdict>;

const QUESTION_END = /[?？]\s*$/u;

/**
 * A text's sentences that state something: no questions, none without a word, citation markers
 * ("[doc_1#0]") left out, as word support leaves them out.
 */
export function sentenceClaims(text: string): string[] {
  return splitSentences(text)
    .map((sentence) =>
      stripCitationMarkers(sentence.text)
        .replace(/\s+([.!?。！？])/gu, "$1")
        .trim(),
    )
    .filter((sentence) => !QUESTION_END.test(sentence) && supportWords(sentence).length > 0);
}

/**
 * Each sentence's verdict against one text: Entailment when its word support there is enough,
 * figures the text does not state or gives to something else counted against it, as the offline
 * judge's groundedness counts them.
 */
function entailmentIn(
  sentences: readonly string[],
  text: string,
  minSupport: number,
): ClaimVerdict[] {
  if (sentences.length === 0) return [];
  const evidence = evidenceWords([text]);
  return sentences.map((sentence) => {
    const misattached = attachNumbers(sentence, [text]).filter(
      (number) => number.verdict !== "attached",
    ).length;
    const support = wordSupport(sentence, evidence, {}, misattached).score ?? 0;
    return support >= minSupport ? "Entailment" : "Neutral";
  });
}

/**
 * RAGChecker's metrics with sentences as claims and word support as entailment, synchronously and
 * without any call. Score, passing and the verdict's shape are the `claims` judge's.
 */
export function offlineClaims(
  input: ClaimsInput,
  options: { config?: JudgesConfig } = {},
): OfflineClaimsResult {
  const parsed = parseJudgeInput("claims_offline", ClaimsInputSchema, input);
  const judges = options.config ?? DEFAULT_JUDGES_CONFIG;
  const config = judges.claims;
  const minSupport = config.offline_min_support;
  const groundTruth = referencesOf(parsed)[0] as string;
  const contexts = parsed.contexts.slice(0, config.max_chunks);
  const chunkTexts = contexts.map(chunkText);
  const responseSentences = sentenceClaims(parsed.answer);
  const answerSentences = sentenceClaims(groundTruth);
  const byChunk = (sentences: readonly string[]) => {
    const columns = chunkTexts.map((text) => entailmentIn(sentences, text, minSupport));
    return sentences.map((_, i) => columns.map((column) => column[i] as ClaimVerdict));
  };
  const answer2response = entailmentIn(responseSentences, groundTruth, minSupport);
  const response2answer = entailmentIn(answerSentences, parsed.answer, minSupport);
  const retrieved2response = byChunk(responseSentences);
  const retrieved2answer = byChunk(answerSentences);
  const verdict = claimsVerdict({
    approximate: OFFLINE_APPROXIMATION,
    contexts,
    response_claims: responseSentences.map((text, i) => ({
      text,
      ground_truth: answer2response[i] as ClaimVerdict,
      chunks: retrieved2response[i] as ClaimVerdict[],
    })),
    ground_truth_claims: answerSentences.map((text, g) => ({
      text,
      response: response2answer[g] as ClaimVerdict,
      chunks: retrieved2answer[g] as ClaimVerdict[],
    })),
  });
  const f1 = round(verdict.metrics.f1, 4);
  return {
    name: "claims_offline",
    language: promptLanguage(judges.language, parsed.question),
    model: CLAIMS_OFFLINE_MODEL,
    calls: [],
    outcome: "ok",
    score: f1,
    raw_score: f1,
    passed: verdict.metrics.f1 >= config.pass_min_f1,
    verdict,
  };
}
