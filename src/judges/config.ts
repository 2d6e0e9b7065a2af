import { z } from "zod";

/**
 * A person-scored example shown to the rubric judge (seed 002 section 4, "分數通膨": few-shot
 * examples calibrate the judge's scale). `ragjudge calibrate --suggest-fewshot` writes them from
 * human labels.
 */
export const RubricFewshotSchema = z
  .object({
    question: z.string().trim().min(1).max(4_000),
    /** The documents the answer was written from, as the judge would see them. */
    context: z.string().max(8_000).default(""),
    answer: z.string().max(8_000),
    /** The person's overall score on the rubric's 1-10 scale. */
    score: z.number().int().min(1).max(10),
    /** Why the person scored it so. */
    note: z.string().max(2_000).default(""),
  })
  .strict();
export type RubricFewshot = z.infer<typeof RubricFewshotSchema>;

/**
 * The `judges` section of ragjudge.config.json. `JudgesConfigSchema.parse({})` yields the
 * documented defaults (docs/judges.md).
 */
export const JudgesConfigSchema = z
  .object({
    /** Prompt language; "auto" detects Chinese characters in the question. */
    language: z.enum(["auto", "en", "zh"]).default("auto"),
    review: z
      .object({
        /** Retrieved items shown to the judge when the input gives no top_k (seed 000: Top-K). */
        top_k: z.number().int().min(1).max(100).default(5),
        /** Characters kept per item before the ellipsis marker (seed 000: 500). */
        max_item_chars: z.number().int().min(1).default(500),
      })
      .strict()
      .prefault({}),
    rubric: z
      .object({
        /** Normalized to sum to 1 (seed 002: 0.5 / 0.3 / 0.2). */
        weights: z
          .object({
            accuracy: z.number().min(0).default(0.5),
            completeness: z.number().min(0).default(0.3),
            clarity: z.number().min(0).default(0.2),
          })
          .strict()
          .refine((w) => w.accuracy + w.completeness + w.clarity > 0, "weights must not all be 0")
          .prefault({}),
        /** is_passing when accuracy >= this (seed 002: "通常 Accuracy >= 7"). */
        pass_min_accuracy: z.number().min(1).max(10).default(7),
        /** Chunks shown to the judge (seed 002: Top-5 or Top-10). */
        max_chunks: z.number().int().min(1).max(10).default(5),
        max_chunk_chars: z.number().int().min(1).default(2_000),
        /** Person-scored calibration examples shown after the built-in ones; default none. */
        fewshot: z.array(RubricFewshotSchema).max(8).default([]),
      })
      .strict()
      .prefault({}),
    reference: z
      .object({
        /** passed when the 1-5 score is at least this. */
        pass_min_score: z.number().int().min(1).max(5).default(4),
      })
      .strict()
      .prefault({}),
    claims: z
      .object({
        /** passed when the answer's claim F1 against the ground truth is at least this. */
        pass_min_f1: z.number().min(0).max(1).default(0.5),
        /** Chunks each claim is checked against, from the top (one check call per claim set each). */
        max_chunks: z.number().int().min(1).max(20).default(10),
        /** Characters of a chunk shown to the checker. */
        max_chunk_chars: z.number().int().min(1).default(4_000),
        /** Offline: a sentence is entailed by a text when its word support there is at least this. */
        offline_min_support: z.number().min(0).max(1).default(0.8),
      })
      .strict()
      .prefault({}),
    /** Runs per judgement; above 1, agreement (pass^N, score std dev) is reported. */
    repeat: z.number().int().min(1).max(20).default(1),
  })
  .strict();
export type JudgesConfig = z.infer<typeof JudgesConfigSchema>;
export type JudgesConfigInput = z.input<typeof JudgesConfigSchema>;

export const DEFAULT_JUDGES_CONFIG: JudgesConfig = JudgesConfigSchema.parse({});
