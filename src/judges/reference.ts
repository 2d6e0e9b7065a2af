import { z } from "zod";
import { DEFAULT_JUDGES_CONFIG } from "./config.js";
import { promptLanguage } from "./language.js";
import { REFERENCE_PROMPTS } from "./reference.prompts.js";
import { type JudgeCallOptions, type JudgeResult, parseJudgeInput, runJudge } from "./result.js";
import { renderPrompt } from "./template.js";

export const ReferenceInputSchema = z.object({
  question: z.string().trim().min(1, "a non-empty question"),
  answer: z.string(),
  ground_truth: z.string().trim().min(1, "a non-empty ground truth"),
});
export type ReferenceInput = z.input<typeof ReferenceInputSchema>;

/** Seed 003's llm_judge_score / llm_judge_reasoning. */
export const ReferenceVerdictSchema = z.object({
  score: z.number().int().min(1).max(5),
  reasoning: z.string(),
});
export type ReferenceVerdict = z.infer<typeof ReferenceVerdictSchema>;

export type ReferenceResult = JudgeResult<"reference", ReferenceVerdict>;

/**
 * Seed 003 section 5.1: scores the answer 1-5 against a ground truth, with reasoning. Passed when
 * score >= config.reference.pass_min_score (4). One LLM call, two with a re-ask.
 */
export async function reference(args: ReferenceInput & JudgeCallOptions): Promise<ReferenceResult> {
  const input = parseJudgeInput("reference", ReferenceInputSchema, args);
  const config = args.config ?? DEFAULT_JUDGES_CONFIG;
  const language = promptLanguage(args.language ?? config.language, input.question);
  const messages = renderPrompt(REFERENCE_PROMPTS[language], {
    question: input.question,
    ground_truth: input.ground_truth,
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
