import { z } from "zod";
import { CostTotalSchema, FAILURE_KINDS, PricedUsageSchema } from "../../llm/index.js";
import { responseSchema } from "../components.js";
import { CodedMessageSchema, Id, Nullable, Time } from "./common.js";
import { PinnedVersionFields } from "./question-sets.js";

// Arenas: contestants compared pairwise, their results and questions.

const Interval = z.tuple([z.number(), z.number()]);
const TallySchema = z.object({ wins: z.number(), ties: z.number(), losses: z.number() });

/** evals/arena's ArenaResults (docs/arena.md): what a completed arena stores. */
export const ArenaResultsSchema = z.looseObject({
  judge: z.string(),
  questions: z.number().int(),
  tolerance: z.number().nullable(),
  contestants: z.array(
    z.looseObject({
      name: z.string(),
      rank: z.number().int(),
      rating: z.number(),
      ci: Interval,
      win_rate: z.number().nullable(),
      wins: z.number(),
      ties: z.number(),
      losses: z.number(),
      length_controlled: z.object({ rating: z.number(), ci: Interval }),
      mean_length: z.number().nullable(),
      evaluation_id: z.string(),
      answered: z.number().int(),
      scored: z.number().int(),
      radar: z.record(z.string(), z.number().nullable()),
      cost: CostTotalSchema.optional().describe(
        "what the contestant's own run cost (absent in arenas stored before it was kept)",
      ),
    }),
  ),
  judge_cost: z
    .object({ by_model: z.array(PricedUsageSchema), total: CostTotalSchema })
    .optional()
    .describe("the pairwise judge's calls, priced (pairwise judge only)"),
  matrix: z.object({ names: z.array(z.string()), cells: z.array(z.array(TallySchema.nullable())) }),
  pairs: z.array(
    z.looseObject({
      a: z.string(),
      b: z.string(),
      wins: z.number(),
      ties: z.number(),
      losses: z.number(),
      missing: z.number(),
      /** Absent on arenas compared before issue 23 (score-based judges had it then only). */
      difference_of: z.enum(["score", "outcome"]).optional(),
      mean_difference: z.number().nullable().optional(),
      difference_ci: Interval.nullable().optional(),
      distinguishable: z
        .boolean()
        .describe("True when difference_ci, as printed, excludes 0 (the one rule)"),
    }),
  ),
  not_distinguishable: z.array(z.tuple([z.string(), z.string()])),
  length_control: z.looseObject({
    coefficient: z.number(),
    ci: Interval,
    comparisons: z.number().int(),
    converged: z.boolean(),
  }),
  bradley_terry: z.looseObject({ regularized: z.boolean(), iterations: z.number().int() }),
  bootstrap: z.object({ rounds: z.number().int(), seed: z.number().int() }),
  flip_rate: z
    .record(
      z.string(),
      z.object({
        judged: z.number().int(),
        flipped: z.number().int(),
        rate: z.number().nullable(),
      }),
    )
    .optional(),
  judge_errors: z
    .array(
      z.object({
        a: z.string(),
        b: z.string(),
        question_id: z.string(),
        message: z.string(),
        kind: z
          .enum(FAILURE_KINDS)
          .optional()
          .describe("what kind of failure (absent in arenas stored before it was kept)"),
      }),
    )
    .optional(),
  examples: z
    .array(
      z.object({
        a: z.string(),
        b: z.string(),
        question_id: z.string(),
        verdict: z.string(),
        reasoning: z.string(),
      }),
    )
    .optional(),
});

/** Seed 002 section 3.2's Auto-Arena: the request snapshot in `config`, the results once done. */
export const ArenaSchema = responseSchema(
  "Arena",
  z.object({
    id: Id,
    name: z.string(),
    question_set_id: Id,
    ...PinnedVersionFields,
    status: z.enum(["PENDING", "RUNNING", "COMPLETED", "FAILED"]),
    status_reason: Nullable(z.string()),
    status_message: Nullable(CodedMessageSchema).describe("why it FAILED, as a coded message"),
    config: z
      .looseObject({
        question_set_id: z.string(),
        contestants: z.array(
          z.looseObject({
            name: z.string(),
            evaluation_id: z.string(),
            source: z.enum(["evaluation", "answers", "builtin", "http"]),
            bot_id: z.string(),
          }),
        ),
        judge: z.string(),
        judge_model: z.string().nullable().optional(),
        rounds: z.number().optional(),
        seed: z.number().optional(),
      })
      .describe("The request as run: contestants as evaluation ids (never a key or the answers)"),
    results: Nullable(
      ArenaResultsSchema.describe(
        "Ratings with intervals, the win matrix and the charts' data, once COMPLETED",
      ),
    ),
    gmt_created: Time,
    gmt_updated: Time,
  }),
);

export const ArenaListSchema = responseSchema(
  "ArenaList",
  z.object({ items: z.array(ArenaSchema) }),
);

const QUESTION_OUTCOMES = ["a", "b", "tie", "not_compared", "judge_error", "not_stored"] as const;

/** An arena question by question: who won each pair, the answers, the judge's stored reasoning. */
export const ArenaQuestionsSchema = z.object({
  judge: z.string(),
  contestants: z.array(
    z.object({ name: z.string(), source: z.enum(["evaluation", "answers", "builtin", "http"]) }),
  ),
  total: z.number().int().describe("questions in the set"),
  items: z.array(
    z.object({
      question_id: z.string(),
      position: z.number().int().describe("the question's place in the set, from 0"),
      question_text: z.string(),
      answers: z.array(
        z.object({
          contestant: z.string(),
          answer: z.string().nullable(),
          score: z.number().nullable().describe("the score judge's 0-1 score; null for pairwise"),
          reasoning: z.string().nullable().describe("the score judge's stored reasoning"),
        }),
      ),
      pairs: z.array(
        z.object({
          a: z.string(),
          b: z.string(),
          outcome: z
            .enum(QUESTION_OUTCOMES)
            .describe(
              "who won: a, b or a tie; not compared (an answer or score missing); the judge failed; or not stored (a pairwise arena compared before per-question verdicts were kept)",
            ),
          flipped: z
            .boolean()
            .nullable()
            .describe("pairwise: the two orders disagreed (counted as a tie)"),
          reasoning: z
            .array(z.string())
            .describe("pairwise: the judge's reasoning with a's answer first, then b's"),
          error: z.string().nullable(),
        }),
      ),
    }),
  ),
});
