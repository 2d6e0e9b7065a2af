import type { z } from "zod";
import { type CallRecord, generateObject, type LlmClient } from "../llm/index.js";
import type { JudgesConfig } from "./config.js";
import { JudgeInputError } from "./errors.js";
import type { LanguageSetting, PromptLanguage } from "./language.js";

/** Every judge, by the name results, configuration, the CLI and the API use. */
export const JUDGE_KINDS = ["review", "rubric", "reference", "offline"] as const;
export type JudgeName = (typeof JUDGE_KINDS)[number];

/**
 * One shape for every judge (like autoevals' Score). `verdict` is the judge's own output in the
 * seed's field names; everything else is common so runs can average, compare and store them alike.
 */
export interface JudgeResult<N extends JudgeName = JudgeName, V = unknown> {
  name: N;
  /** "judge_error" when the judge's reply was unusable even after the re-ask. */
  outcome: "ok" | "judge_error";
  /** The judge's score on [0, 1]: (raw - min) / (max - min) of its scale. */
  score: number;
  /** The judge's own number: review 1 or 0, rubric weighted_score (1-10), reference 1-5. */
  raw_score: number;
  passed: boolean;
  /**
   * True only on judge_error: score and verdict are the seed's "default low score" (seed 002) and
   * must never count in averages or pass rates (summarizeJudgeResults skips them).
   */
  defaulted: boolean;
  verdict: V;
  /** On judge_error: the last validation error and every raw reply, for inspection. */
  error?: { message: string; raw: string[] };
  language: PromptLanguage;
  model: string;
  /** Every LLM call made (1, or 2 with a re-ask; cached calls have attempts 0). */
  calls: CallRecord[];
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
  /** The seed's default low verdict, used on judge_error. */
  fallback(error: string): V;
}

/** Calls the LLM for a structured reply and turns it into a JudgeResult, or a defaulted judge_error. */
export async function runJudge<N extends JudgeName, R, V>(
  spec: JudgeSpec<N, R, V>,
): Promise<JudgeResult<N, V>> {
  const { client, signal, timeoutMs, noCache, seed } = spec.options;
  const reply = await generateObject({
    client,
    messages: spec.messages,
    schema: spec.replySchema,
    schemaName: spec.name,
    signal,
    timeoutMs,
    noCache,
    seed,
  });
  if (!reply.ok) {
    return {
      // The same key order as always (results are serialized as they are).
      name: spec.name,
      language: spec.language,
      model: client.model,
      calls: reply.calls,
      outcome: "judge_error",
      score: 0,
      raw_score: spec.score.min,
      passed: false,
      defaulted: true,
      verdict: spec.fallback(reply.error),
      error: { message: reply.error, raw: reply.raw },
    };
  }
  const { verdict, raw_score, passed } = spec.judge(reply.value);
  const span = spec.score.max - spec.score.min;
  return {
    name: spec.name,
    language: spec.language,
    model: client.model,
    calls: reply.calls,
    outcome: "ok",
    score: round((raw_score - spec.score.min) / span, 4),
    raw_score,
    passed,
    defaulted: false,
    verdict,
  };
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
