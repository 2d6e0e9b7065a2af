import type { z } from "zod";
import {
  type CallRecord,
  failedCallOf,
  generateObject,
  errorText,
  LlmAbortError,
  type LlmClient,
  LlmError,
  type LlmErrorName,
} from "../llm/index.js";
import type { JudgesConfig } from "./config.js";
import { JudgeInputError } from "./errors.js";
import type { LanguageSetting, PromptLanguage } from "./language.js";

/** Every judge, by the name results, configuration, the CLI and the API use. */
export const JUDGE_KINDS = [
  "review",
  "rubric",
  "reference",
  "offline",
  "token_precision",
  "contains_reference",
  "claims",
  "claims_offline",
] as const;
export type JudgeName = (typeof JUDGE_KINDS)[number];

/** What every result has, scored or not. */
interface JudgeResultBase<N extends JudgeName> {
  name: N;
  language: PromptLanguage;
  model: string;
  /** Every LLM call that answered (1, or 2 with a re-ask; cached calls have attempts 0). */
  calls: CallRecord[];
}

/**
 * One shape for every judge (like autoevals' Score). `verdict` is the judge's own output in the
 * seed's field names; everything else is common so runs can average, compare and store them alike.
 */
export interface JudgeScore<
  N extends JudgeName = JudgeName,
  V = unknown,
> extends JudgeResultBase<N> {
  outcome: "ok";
  /** The judge's score on [0, 1]: (raw - min) / (max - min) of its scale. */
  score: number;
  /** The judge's own number: review 1 or 0, rubric weighted_score (1-10), reference 1-5. */
  raw_score: number;
  passed: boolean;
  verdict: V;
}

/**
 * Why a judge gave no score: `reply` when the model's replies stayed unusable after the re-ask
 * (`raw` holds them), `error` for anything else that stopped it (bad input, no client), otherwise
 * the LLM error's name (the call failed after the client's retries).
 */
export interface JudgeErrorDetail {
  message: string;
  cause: "reply" | "error" | LlmErrorName;
  /** Whether trying again later could help (the LLM error's own verdict for a failed call). */
  retryable: boolean;
  raw: string[];
}

/**
 * A judge that could not judge. It has no score (seed 002's "default low score" would read as a
 * real 0 downstream): every number is null and the error says why.
 */
export interface JudgeFailure<N extends JudgeName = JudgeName> extends JudgeResultBase<N> {
  outcome: "judge_error";
  score: null;
  raw_score: null;
  passed: null;
  verdict: null;
  error: JudgeErrorDetail;
}

export type JudgeResult<N extends JudgeName = JudgeName, V = unknown> =
  JudgeScore<N, V> | JudgeFailure<N>;

export function judgeFailure<N extends JudgeName>(
  base: JudgeResultBase<N>,
  error: JudgeErrorDetail,
): JudgeFailure<N> {
  return {
    ...base,
    outcome: "judge_error",
    score: null,
    raw_score: null,
    passed: null,
    verdict: null,
    error,
  };
}

/** The detail of a thrown error: an LLM error keeps its name and its own `retryable`. */
export function judgeErrorDetailOf(error: unknown): JudgeErrorDetail {
  if (!LlmError.isInstance(error)) {
    return {
      message: errorText(error),
      cause: "error",
      retryable: false,
      raw: [],
    };
  }
  return { message: errorText(error), cause: error.name, retryable: error.retryable, raw: [] };
}

/** Options every judge accepts besides its input. */
export interface JudgeCallOptions {
  /** The judge role's client (seed 000's LLM_MUTI_AGENT), never the generator's. */
  client: LlmClient;
  /** The parsed `judges` config section; default DEFAULT_JUDGES_CONFIG. */
  config?: JudgesConfig;
  /** Overrides config.language. */
  language?: LanguageSetting;
  signal?: AbortSignal;
  timeoutMs?: number;
  noCache?: boolean;
  /** Overrides the client's seed; repeatJudge varies it. */
  seed?: number;
}

/** Validates a judge's input at the boundary, naming the field at fault. */
export function parseJudgeInput<T>(judge: JudgeName, schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new JudgeInputError(
    judge,
    issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "(input)",
    issue?.message ?? "a valid input",
  );
}

export interface JudgeSpec<N extends JudgeName, R, V> {
  name: N;
  options: JudgeCallOptions;
  language: PromptLanguage;
  messages: { role: "system" | "user"; content: string }[];
  /** What the LLM must return (may differ from the verdict, e.g. review's per-dimension reply). */
  replySchema: z.ZodType<R>;
  score: { min: number; max: number };
  /** The verdict, its raw score and whether it passes, from a valid reply. */
  judge(reply: R): { verdict: V; raw_score: number; passed: boolean };
}

/**
 * Calls the LLM for a structured reply and turns it into a JudgeResult, or a judge_error without a
 * score: an unusable reply, or an LLM error after the client's own retries. Only an abort throws.
 */
export async function runJudge<N extends JudgeName, R, V>(
  spec: JudgeSpec<N, R, V>,
): Promise<JudgeResult<N, V>> {
  const { client, signal, timeoutMs, noCache, seed } = spec.options;
  const base = { name: spec.name, language: spec.language, model: client.model };
  let reply: Awaited<ReturnType<typeof generateObject<R>>>;
  try {
    reply = await generateObject({
      client,
      messages: spec.messages,
      schema: spec.replySchema,
      schemaName: spec.name,
      signal,
      timeoutMs,
      noCache,
      seed,
    });
  } catch (error) {
    if (signal?.aborted || !LlmError.isInstance(error) || LlmAbortError.isInstance(error)) {
      throw error;
    }
    const failed = failedCallOf(error);
    return judgeFailure({ ...base, calls: failed ? [failed] : [] }, judgeErrorDetailOf(error));
  }
  if (!reply.ok) {
    return judgeFailure(
      { ...base, calls: reply.calls },
      // A fresh sample may parse where the re-ask did not.
      { message: reply.error, cause: "reply", retryable: true, raw: reply.raw },
    );
  }
  const { verdict, raw_score, passed } = spec.judge(reply.value);
  const span = spec.score.max - spec.score.min;
  return {
    ...base,
    calls: reply.calls,
    outcome: "ok",
    score: round((raw_score - spec.score.min) / span, 4),
    raw_score,
    passed,
    verdict,
  };
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
