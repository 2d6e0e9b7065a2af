import { z } from "zod";
import { DEFAULT_JUDGES_CONFIG } from "./config.js";
import { promptLanguage } from "./language.js";
import { REFERENCE_PROMPTS, type ReferencePrompt } from "./reference.prompts.js";
import { ReferenceFieldsSchema, referencesOf } from "./references.js";
import { type JudgeCallOptions, type JudgeResult, parseJudgeInput, runJudge } from "./result.js";
import { renderPrompt } from "./template.js";

/** `ground_truth`, `ground_truths` or both: at least one non-blank reference. */
export const ReferenceInputSchema = z
  .object({
    question: z.string().trim().min(1, "a non-empty question"),
    answer: z.string(),
  })
  .extend(ReferenceFieldsSchema.shape)
  .refine((input) => referencesOf(input).length > 0, {
    path: ["ground_truth"],
    message: "a non-empty ground truth (ground_truth or ground_truths)",
  });
export type ReferenceInput = z.input<typeof ReferenceInputSchema>;

/** Seed 003's llm_judge_score / llm_judge_reasoning. */
export const ReferenceVerdictSchema = z.object({
  score: z.number().int().min(1).max(5),
  reasoning: z.string(),
});
export type ReferenceVerdict = z.infer<typeof ReferenceVerdictSchema>;

export type ReferenceResult = JudgeResult<"reference", ReferenceVerdict>;

/** The {ground_truth} text: one reference as it is, several numbered after `several`. */
export function formatReferences(references: readonly string[], prompt: ReferencePrompt): string {
  if (references.length === 1) return references[0] as string;
  return [prompt.several, ...references.map((reference, i) => `${i + 1}. ${reference}`)].join("\n");
}

/**
 * Seed 003 section 5.1: scores the answer 1-5 against a ground truth, with reasoning. Passed when
 * score >= config.reference.pass_min_score (4). With several references (`ground_truths`) the
 * prompt lists them and asks for the score against the best-matching one, in the same one call
 * (SQuAD's maximum over references, without one call per reference). One LLM call, two with a
 * re-ask.
 */
export async function reference(args: ReferenceInput & JudgeCallOptions): Promise<ReferenceResult> {
  const input = parseJudgeInput("reference", ReferenceInputSchema, args);
  const config = args.config ?? DEFAULT_JUDGES_CONFIG;
  const language = promptLanguage(args.language ?? config.language, input.question);
  const prompt = REFERENCE_PROMPTS[language];
  const messages = renderPrompt(prompt, {
    question: input.question,
    ground_truth: formatReferences(referencesOf(input), prompt),
    rag_answer: input.answer,
  });
  return runJudge({
    name: "reference",
    options: args,
    language,
    messages,
    replySchema: ReferenceVerdictSchema,
    score: { min: 1, max: 5 },
    judge(verdict) {
      return {
        verdict,
        raw_score: verdict.score,
        passed: verdict.score >= config.reference.pass_min_score,
      };
    },
  });
}
