import { z } from "zod";
import {
  type ContextItem,
  formatContext,
  type LanguageSetting,
  type PromptLanguage,
  promptLanguage,
  fillTemplate,
  truncateChars,
} from "../../judges/index.js";
import {
  type CallRecord,
  type FailureKind,
  failureKindOf,
  generateObject,
  type LlmClient,
} from "../../llm/index.js";
import { PAIRWISE_PROMPTS } from "./pairwise.prompts.js";
import { combineSwapped, type PairVerdict, type SwappedOutcome } from "./swap-rule.js";

/** What the pairwise judge must reply. */
export const PairwiseReplySchema = z.object({
  reasoning: z.string().max(20_000),
  // "a", " B ", "TIE" are read as meant; anything else is an invalid reply (re-asked once).
  verdict: z.preprocess(
    (value) => {
      if (typeof value !== "string") return value;
      const text = value.trim();
      return /^tie$/i.test(text) ? "tie" : text.toUpperCase();
    },
    z.enum(["A", "B", "tie"]),
  ),
});
export type PairwiseReply = z.infer<typeof PairwiseReplySchema>;

export interface PairwiseInput {
  question: string;
  /** Every acceptable reference; the judge sees them all. */
  references: readonly string[];
  contexts: readonly ContextItem[];
  answerA: string;
  answerB: string;
}

export interface PairwiseOptions {
  client: LlmClient;
  language?: LanguageSetting;
  signal?: AbortSignal;
  noCache?: boolean;
}

/** One ordering judged: a verdict with its reasoning, or the judge's error (never a silent tie). */
export type PairwiseJudgement =
  | { ok: true; verdict: PairVerdict; reasoning: string; calls: CallRecord[] }
  | { ok: false; error: string; kind: FailureKind; raw: string[]; calls: CallRecord[] };

const LIMITS = { answerChars: 8_000, contextItems: 5, contextChars: 800, referenceChars: 4_000 };

export function pairwiseMessages(input: PairwiseInput, language: PromptLanguage) {
  const prompts = PAIRWISE_PROMPTS[language];
  const reference =
    input.references.length === 0
      ? prompts.noReference
      : input.references.map((r) => truncateChars(r, LIMITS.referenceChars)).join("\n---\n");
  const user = fillTemplate(prompts.user, {
    question: input.question,
    reference,
    context: formatContext(input.contexts, {
      maxItems: LIMITS.contextItems,
      maxChars: LIMITS.contextChars,
      empty: prompts.noContext,
    }),
    answer_a: truncateChars(input.answerA, LIMITS.answerChars),
    answer_b: truncateChars(input.answerB, LIMITS.answerChars),
  });
  return [
    { role: "system" as const, content: prompts.system },
    { role: "user" as const, content: user },
  ];
}

/** Judges one ordering (A, then B) with the judge role's client. */
export async function judgePair(
  input: PairwiseInput,
  options: PairwiseOptions,
): Promise<PairwiseJudgement> {
  const language = promptLanguage(options.language, input.question);
  try {
    const reply = await generateObject({
      client: options.client,
      messages: pairwiseMessages(input, language),
      schema: PairwiseReplySchema,
      schemaName: "pairwise",
      signal: options.signal,
      noCache: options.noCache,
    });
    if (!reply.ok) {
      return {
        ok: false,
        error: reply.error,
        kind: "unusable_reply",
        raw: reply.raw,
        calls: reply.calls,
      };
    }
    return {
      ok: true,
      verdict: reply.value.verdict,
      reasoning: reply.value.reasoning,
      calls: reply.calls,
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return {
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      kind: failureKindOf(error),
      raw: [],
      calls: [],
    };
  }
}

export type SwappedJudgement =
  | (SwappedOutcome & { ok: true; first: PairwiseJudgement; second: PairwiseJudgement })
  | {
      ok: false;
      error: string;
      /** The kind of the first order's failure (else the swapped one's). */
      kind: FailureKind;
      first: PairwiseJudgement;
      second: PairwiseJudgement;
    };

/**
 * Judges a pair in both orders (MT-Bench): x as A then y as A. When either order fails, the
 * question is a judge error for this pair, kept apart from ties.
 */
export async function judgeSwapped(
  input: Omit<PairwiseInput, "answerA" | "answerB"> & { answerX: string; answerY: string },
  options: PairwiseOptions,
): Promise<SwappedJudgement> {
  const { answerX, answerY, ...rest } = input;
  const [first, second] = await Promise.all([
    judgePair({ ...rest, answerA: answerX, answerB: answerY }, options),
    judgePair({ ...rest, answerA: answerY, answerB: answerX }, options),
  ]);
  if (!first.ok || !second.ok) {
    const error = [first, second]
      .map((j, i) => (j.ok ? null : `${i === 0 ? "first" : "swapped"} order: ${j.error}`))
      .filter(Boolean)
      .join("; ");
    const kind = !first.ok ? first.kind : !second.ok ? second.kind : "other";
    return { ok: false, error, kind, first, second };
  }
  return { ok: true, ...combineSwapped(first.verdict, second.verdict), first, second };
}
