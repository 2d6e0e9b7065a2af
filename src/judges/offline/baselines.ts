// The one-line baselines every offline judge is measured against (issue 26), offered as judges of
// their own: where the offline judge does no better than one of them on a kind of data, a user can
// pick the baseline by name. Both are deliberately plain; what makes them baselines is that a
// person can check each verdict by eye.
//
// - token_precision: the share of the answer's words found among the contexts' words (BEGIN's
//   "token precision"); a groundedness score.
// - contains_reference: the SQuAD-normalized answer contains a SQuAD-normalized reference; a
//   correctness verdict.

import { z } from "zod";
import { ContextItemSchema } from "../context.js";
import { referencesOf } from "../references.js";
import {
  type JudgeFailure,
  type JudgeScore,
  judgeFailure,
  parseJudgeInput,
  round,
} from "../result.js";
import { normalizeAnswer } from "./squad.js";

/** The model field of both baseline judges' results. */
export const BASELINE_MODEL = "offline-baseline";

/** token_precision passes an answer when at least this share of its words is in the contexts. */
export const TOKEN_PRECISION_PASS = 0.8;

// Han, kana and Hangul characters are a word each (those scripts are written without spaces);
// elsewhere a word is a run of letters and digits. Lower case only: no stemming, no stopwords.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/** The words token precision counts: lower-cased runs of letters and digits, CJK characters apart. */
export function baselineWords(text: string): string[] {
  return text.toLowerCase().replace(UNSPACED, " $& ").match(WORD) ?? [];
}

/**
 * Share of the answer's words (repeats counted) that occur among the contexts' words; null when
 * the answer has no word.
 */
export function tokenPrecision(answer: string, contexts: readonly string[]): number | null {
  const words = baselineWords(answer);
  if (words.length === 0) return null;
  const evidence = new Set(contexts.flatMap(baselineWords));
  let found = 0;
  for (const word of words) if (evidence.has(word)) found++;
  return found / words.length;
}

/**
 * Whether the SQuAD-normalized answer contains a SQuAD-normalized reference as a substring
 * (references that normalize to nothing are left out); the index of the first that is contained,
 * else -1.
 */
export function containedReference(answer: string, references: readonly string[]): number {
  const normalized = normalizeAnswer(answer);
  return references.findIndex((reference) => {
    const wanted = normalizeAnswer(reference);
    return wanted !== "" && normalized.includes(wanted);
  });
}

const BaselineInputSchema = z.object({
  question: z.string().trim().min(1, "a non-empty question"),
  answer: z.string(),
  contexts: z.array(ContextItemSchema).default([]),
  ground_truth: z.string().optional(),
  ground_truths: z.array(z.string()).optional(),
});
export type BaselineInput = z.input<typeof BaselineInputSchema>;

export interface TokenPrecisionVerdict {
  token_precision: number;
  words: number;
  /** Up to 8 of the answer's words the contexts do not hold, in order. */
  unsupported: string[];
}

export interface ContainsReferenceVerdict {
  contains_reference: boolean;
  /** The reference the answer contains; null when it contains none. */
  reference_index: number | null;
}

function contentOf(item: z.infer<typeof ContextItemSchema>): string {
  return typeof item === "string" ? item : item.content;
}

const base = <N extends "token_precision" | "contains_reference">(name: N) => ({
  name,
  language: "en" as const,
  model: BASELINE_MODEL,
  calls: [],
});

/**
 * The token_precision judge: score = share of the answer's words found in the contexts; passes
 * at TOKEN_PRECISION_PASS. Without contexts, or an answer without words, it cannot judge.
 */
export function tokenPrecisionJudge(
  input: BaselineInput,
): JudgeScore<"token_precision", TokenPrecisionVerdict> | JudgeFailure<"token_precision"> {
  const parsed = parseJudgeInput("token_precision", BaselineInputSchema, input);
  const contexts = parsed.contexts.map(contentOf).filter((text) => text.trim() !== "");
  const words = baselineWords(parsed.answer);
  const precision = tokenPrecision(parsed.answer, contexts);
  if (contexts.length === 0 || precision === null) {
    return judgeFailure(base("token_precision"), {
      message:
        contexts.length === 0
          ? "token_precision needs retrieved contexts to look the answer's words up in"
          : "the answer has no words to look up",
      cause: "error",
      retryable: false,
      raw: [],
    });
  }
  const evidence = new Set(contexts.flatMap(baselineWords));
  const unsupported = [...new Set(words.filter((word) => !evidence.has(word)))].slice(0, 8);
  return {
    ...base("token_precision"),
    outcome: "ok",
    score: round(precision, 4),
    raw_score: round(precision, 4),
    passed: precision >= TOKEN_PRECISION_PASS,
    verdict: { token_precision: round(precision, 4), words: words.length, unsupported },
  };
}

/** The contains_reference judge: 1 and passed when the answer contains a reference, else 0. */
export function containsReferenceJudge(
  input: BaselineInput,
): JudgeScore<"contains_reference", ContainsReferenceVerdict> | JudgeFailure<"contains_reference"> {
  const parsed = parseJudgeInput("contains_reference", BaselineInputSchema, input);
  const references = referencesOf(parsed);
  if (references.length === 0) {
    return judgeFailure(base("contains_reference"), {
      message: "contains_reference needs a ground_truth (or ground_truths)",
      cause: "error",
      retryable: false,
      raw: [],
    });
  }
  const index = containedReference(parsed.answer, references);
  return {
    ...base("contains_reference"),
    outcome: "ok",
    score: index >= 0 ? 1 : 0,
    raw_score: index >= 0 ? 1 : 0,
    passed: index >= 0,
    verdict: { contains_reference: index >= 0, reference_index: index >= 0 ? index : null },
  };
}
