import { z } from "zod";
import { DEFAULT_JUDGES_CONFIG } from "./config.js";
import { ContextItemSchema, formatContext } from "./context.js";
import { promptLanguage } from "./language.js";
import { type JudgeCallOptions, type JudgeResult, parseJudgeInput, runJudge } from "./result.js";
import { REVIEW_PROMPTS } from "./review.prompts.js";
import { renderPrompt } from "./template.js";

export const ReviewInputSchema = z.object({
  question: z.string().trim().min(1, "a non-empty question"),
  answer: z.string(),
  /** Retrieved items in the retriever's order; only the top_k are shown. */
  contexts: z.array(ContextItemSchema).default([]),
  /** The retriever's top-k; default config.review.top_k. */
  top_k: z.number().int().min(1).optional(),
});
export type ReviewInput = z.input<typeof ReviewInputSchema>;

/** Seed 000's return value, exactly: `{"passed": bool, "suggestions": [...]}`. */
export const ReviewVerdictSchema = z.object({
  passed: z.boolean(),
  suggestions: z.array(z.string()),
});
export type ReviewVerdict = z.infer<typeof ReviewVerdictSchema>;

const Dimension = z
  .object({
    passed: z.boolean(),
    problems: z.array(z.string().trim().min(1)).max(20),
  })
  .refine((d) => d.passed || d.problems.length > 0, {
    message: "a dimension with passed=false must list at least one problem",
  });

/** What the judge LLM returns: one verdict per dimension, reduced to ReviewVerdict in code. */
export const ReviewReplySchema = z.object({ reasonableness: Dimension, evidence: Dimension });
export type ReviewReply = z.infer<typeof ReviewReplySchema>;

export type ReviewResult = JudgeResult<"review", ReviewVerdict>;

/**
 * Seed 000's `_eval_answer_node`: does the answer pass on reasonableness and evidence citation?
 * Passed only when both dimensions pass; suggestions are the failing dimensions' problems, in
 * order, for the generator to act on. Without retrieved context the evidence dimension is not
 * judged (the seed checks citations only "已提供检索上下文"). One LLM call, two with a re-ask.
 */
export async function review(args: ReviewInput & JudgeCallOptions): Promise<ReviewResult> {
  const input = parseJudgeInput("review", ReviewInputSchema, args);
  const config = args.config ?? DEFAULT_JUDGES_CONFIG;
  const language = promptLanguage(args.language ?? config.language, input.question);
  const prompts = REVIEW_PROMPTS[language];
  const topK = input.top_k ?? config.review.top_k;
  const hasContext = input.contexts.length > 0;
  const messages = renderPrompt(prompts, {
    question: input.question,
    answer: input.answer,
    context: formatContext(input.contexts, {
      maxItems: topK,
      maxChars: config.review.max_item_chars,
      empty: prompts.noContext,
    }),
    top_k: String(topK),
    max_chars: String(config.review.max_item_chars),
    evidence_rule: hasContext
      ? prompts.evidenceRule.withContext
      : prompts.evidenceRule.withoutContext,
  });
  return runJudge({
    name: "review",
    options: args,
    language,
    messages,
    replySchema: ReviewReplySchema,
    score: { min: 0, max: 1 },
    judge(reply) {
      const verdict = reviewVerdict(reply, hasContext);
      return { verdict, raw_score: verdict.passed ? 1 : 0, passed: verdict.passed };
    },
  });
}

/** Both dimensions must pass; a passing dimension's stray problems are dropped (seed: `[]`). */
export function reviewVerdict(reply: ReviewReply, hasContext: boolean): ReviewVerdict {
  const suggestions: string[] = [];
  if (!reply.reasonableness.passed) suggestions.push(...reply.reasonableness.problems);
  const evidencePassed = !hasContext || reply.evidence.passed;
  if (!evidencePassed) suggestions.push(...reply.evidence.problems);
  return { passed: reply.reasonableness.passed && evidencePassed, suggestions };
}
