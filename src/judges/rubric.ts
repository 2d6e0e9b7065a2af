import { z } from "zod";
import { DEFAULT_JUDGES_CONFIG, type JudgesConfig } from "./config.js";
import { ContextItemSchema, formatContext } from "./context.js";
import { type PromptLanguage, promptLanguage } from "./language.js";
import {
  type JudgeCallOptions,
  type JudgeResult,
  parseJudgeInput,
  round,
  runJudge,
} from "./result.js";
import { RUBRIC_FEWSHOT_LABELS, RUBRIC_PROMPTS, type RubricMode } from "./rubric.prompts.js";
import { renderPrompt } from "./template.js";

export type { RubricMode } from "./rubric.prompts.js";

export const RubricInputSchema = z
  .object({
    question: z.string().trim().min(1, "a non-empty question"),
    answer: z.string(),
    /** The documents the answer was written from, best first. */
    documents: z.array(ContextItemSchema).default([]),
    /**
     * Comparison mode (seed 002's mitigation for pure-LLM answers): another answer's retrieved
     * documents, used as ground truth for this one.
     */
    borrowed_documents: z.array(ContextItemSchema).optional(),
    /** Default: comparison with borrowed_documents, documents with documents, pure otherwise. */
    mode: z.enum(["documents", "pure", "comparison"]).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.mode === "comparison" && !input.borrowed_documents?.length) {
      ctx.addIssue({
        code: "custom",
        path: ["borrowed_documents"],
        message: "at least one document in comparison mode",
      });
    }
    if (input.mode === "documents" && input.documents.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["documents"],
        message: "at least one document in documents mode (use mode pure for none)",
      });
    }
  });
export type RubricInput = z.input<typeof RubricInputSchema>;

const score = z.number().min(1).max(10);

/** What the judge LLM returns; "analysis" comes first so the model reasons before it scores. */
export const RubricReplySchema = z.object({
  analysis: z.string(),
  accuracy: score,
  completeness: score,
  clarity: score,
  reason: z.string(),
  suggestion: z.string(),
});
export type RubricReply = z.infer<typeof RubricReplySchema>;

/** Seed 002's EvaluationMetrics. */
export interface EvaluationMetrics {
  accuracy: number;
  completeness: number;
  clarity: number;
  /** weights · scores, computed here (never trusted from the model), 2 decimals. */
  weighted_score: number;
}

/** Seed 002's FineGrainedEvaluationResult, plus the chain of thought and the mode used. */
export interface FineGrainedEvaluationResult {
  metrics: EvaluationMetrics;
  analysis: string;
  reason: string;
  suggestion: string;
  is_passing: boolean;
  mode: RubricMode;
}

export type RubricResult = JudgeResult<"rubric", FineGrainedEvaluationResult>;
export type RubricWeights = JudgesConfig["rubric"]["weights"];

/** Weighted 1-10 score; weights are normalized to sum to 1 (default 0.5 / 0.3 / 0.2). */
export function weightedScore(
  metrics: Pick<EvaluationMetrics, "accuracy" | "completeness" | "clarity">,
  weights: RubricWeights,
): number {
  const total = weights.accuracy + weights.completeness + weights.clarity;
  const sum =
    metrics.accuracy * weights.accuracy +
    metrics.completeness * weights.completeness +
    metrics.clarity * weights.clarity;
  return round(sum / total, 2);
}

export function rubricMode(input: z.output<typeof RubricInputSchema>): RubricMode {
  if (input.mode) return input.mode;
  if (input.borrowed_documents?.length) return "comparison";
  return input.documents.length > 0 ? "documents" : "pure";
}

/**
 * Seed 002's `evaluate_fine_grained`: accuracy, completeness and clarity on 1-10, weighted into
 * weighted_score; is_passing when accuracy >= config.rubric.pass_min_accuracy (7). Context is the
 * top config.rubric.max_chunks documents (5). One LLM call, two with a re-ask.
 */
export async function rubric(args: RubricInput & JudgeCallOptions): Promise<RubricResult> {
  const input = parseJudgeInput("rubric", RubricInputSchema, args);
  const config = args.config ?? DEFAULT_JUDGES_CONFIG;
  const language = promptLanguage(args.language ?? config.language, input.question);
  const mode = rubricMode(input);
  const messages = renderPrompt(
    RUBRIC_PROMPTS[language],
    rubricPromptValues(input, mode, language, config),
  );
  const { weights, pass_min_accuracy } = config.rubric;
  return runJudge({
    name: "rubric",
    options: args,
    language,
    messages,
    replySchema: RubricReplySchema,
    score: { min: 1, max: 10 },
    judge(reply) {
      const metrics = {
        accuracy: reply.accuracy,
        completeness: reply.completeness,
        clarity: reply.clarity,
        weighted_score: weightedScore(reply, weights),
      };
      const isPassing = reply.accuracy >= pass_min_accuracy;
      return {
        verdict: {
          metrics,
          analysis: reply.analysis,
          reason: reply.reason,
          suggestion: reply.suggestion,
          is_passing: isPassing,
          mode,
        },
        raw_score: metrics.weighted_score,
        passed: isPassing,
      };
    },
  });
}

function percent(weight: number, weights: RubricWeights): string {
  const total = weights.accuracy + weights.completeness + weights.clarity;
  return `${round((weight / total) * 100, 1)}%`;
}

const examplesByLanguage = new Map<PromptLanguage, string>();

/** The calibration examples as prompt text; the same for every call, so rendered once. */
function examplesText(language: PromptLanguage): string {
  let text = examplesByLanguage.get(language);
  if (text === undefined) {
    const { examples, exampleLabels: labels } = RUBRIC_PROMPTS[language];
    text = examples
      .map(
        (example, i) =>
          `### ${labels.example} ${i + 1}: ${example.label}\n` +
          `${labels.question}: ${example.question}\n` +
          `${labels.context}:\n${example.context}\n` +
          `${labels.answer}: ${example.answer}\n` +
          `${labels.evaluation}: ${JSON.stringify(example.reply)}`,
      )
      .join("\n\n");
    examplesByLanguage.set(language, text);
  }
  return text;
}

/** The built-in examples, then the person-scored ones from the config (none by default). */
function withFewshot(
  builtIn: string,
  language: PromptLanguage,
  fewshot: JudgesConfig["rubric"]["fewshot"],
): string {
  if (fewshot.length === 0) return builtIn;
  const labels = RUBRIC_PROMPTS[language].exampleLabels;
  const own = RUBRIC_FEWSHOT_LABELS[language];
  const examples = fewshot.map(
    (example, i) =>
      `### ${own.heading} ${i + 1}\n` +
      `${labels.question}: ${example.question}\n` +
      `${labels.context}:\n${example.context || "-"}\n` +
      `${labels.answer}: ${example.answer}\n` +
      `${own.score}: ${example.score}/10` +
      (example.note ? `\n${own.note}: ${example.note}` : ""),
  );
  return `${builtIn}\n\n${own.intro}\n\n${examples.join("\n\n")}`;
}

function rubricPromptValues(
  input: z.output<typeof RubricInputSchema>,
  mode: RubricMode,
  language: PromptLanguage,
  config: JudgesConfig,
): Record<string, string> {
  const prompts = RUBRIC_PROMPTS[language];
  const { weights, max_chunks, max_chunk_chars } = config.rubric;
  const documents =
    mode === "comparison"
      ? (input.borrowed_documents ?? [])
      : mode === "pure"
        ? []
        : input.documents;
  return {
    question: input.question,
    answer: input.answer,
    context_heading: prompts.contextHeading[mode],
    context: formatContext(documents, {
      maxItems: max_chunks,
      maxChars: max_chunk_chars,
      empty: prompts.noDocuments,
    }),
    mode_rule: prompts.modeRule[mode],
    examples: withFewshot(examplesText(language), language, config.rubric.fewshot),
    w_accuracy: percent(weights.accuracy, weights),
    w_completeness: percent(weights.completeness, weights),
    w_clarity: percent(weights.clarity, weights),
  };
}
