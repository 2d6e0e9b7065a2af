import { z } from "zod";

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
    /** Runs per judgement; above 1, agreement (pass^N, score std dev) is reported. */
    repeat: z.number().int().min(1).max(20).default(1),
  })
  .strict();
export type JudgesConfig = z.infer<typeof JudgesConfigSchema>;
export type JudgesConfigInput = z.input<typeof JudgesConfigSchema>;

export const DEFAULT_JUDGES_CONFIG: JudgesConfig = JudgesConfigSchema.parse({});
