import { z } from "zod";
import { JUDGE_KINDS, JudgeLineSchema, missingForJudges } from "../../judges/index.js";
import { responseSchema } from "../components.js";

// The judge endpoint: its request and one result per judge.

/** `POST /api/v1/judge`: one line of `ragjudge judge` input plus the judges to run. */
export const JudgeRequestSchema = JudgeLineSchema.extend({
  judges: z.array(z.enum(JUDGE_KINDS)).min(1).max(JUDGE_KINDS.length).default(["offline"]),
  no_cache: z.boolean().default(false),
}).superRefine((request, ctx) => {
  for (const issue of missingForJudges(request, request.judges)) {
    ctx.addIssue({ code: "custom", ...issue });
  }
});

const LlmCallSchema = z.looseObject({
  model: z.string().optional(),
  latency_ms: z.number().optional(),
  attempts: z.number().optional(),
});

const judgeBase = {
  name: z.string(),
  language: z.string().optional(),
  model: z.string().optional(),
  calls: z.array(LlmCallSchema).optional(),
  agreement: z.record(z.string(), z.unknown()).optional(),
  trials: z.array(z.record(z.string(), z.unknown())).optional(),
};

/** One judge's result (judges/result.ts): a score, or a failure with no numbers and its reason. */
export const JudgeResultSchema = responseSchema(
  "JudgeResult",
  z.discriminatedUnion("outcome", [
    z.looseObject({
      ...judgeBase,
      outcome: z.literal("ok"),
      score: z.number().describe("on [0, 1]"),
      raw_score: z
        .number()
        .describe("the judge's own scale: review 1/0, rubric 1-10, reference 1-5"),
      passed: z.boolean(),
      verdict: z
        .record(z.string(), z.unknown())
        .describe("the judge's reply: reasoning, suggestions, per-dimension scores, metrics"),
    }),
    z.looseObject({
      ...judgeBase,
      outcome: z.literal("judge_error"),
      score: z.number().nullable().describe("null: a failed judge has no score"),
      raw_score: z.number().nullable(),
      passed: z.boolean().nullable(),
      verdict: z.unknown(),
      error: z.looseObject({
        message: z.string(),
        cause: z.string().optional().describe("reply, error, or the LLM error's name"),
        retryable: z.boolean().optional(),
        raw: z.array(z.string()).optional(),
      }),
    }),
  ]),
);

export const JudgeResponseSchema = responseSchema(
  "JudgeResponse",
  z.object({
    results: z.partialRecord(z.enum(JUDGE_KINDS), JudgeResultSchema),
  }),
);
