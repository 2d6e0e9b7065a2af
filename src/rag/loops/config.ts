import { z } from "zod";
import { RetrievalSourceSchema } from "../types.js";

// One schema for the loops' settings; `LoopsConfigSchema.parse({})` yields the documented
// defaults (docs/rag.md). Every number that comes from a seed says which.

const unit = z.number().min(0).max(1);

export const QualityConfigSchema = z
  .object({
    /**
     * The source whose coverage is the first dimension: seed 001 counts `source == "temporal"`
     * (its learner-history store). "auto" picks `vector` when the run may use it, else `lexical`.
     */
    priority_source: z.union([z.literal("auto"), RetrievalSourceSchema]).default("auto"),
    /** Seed 001: 0.4 / 0.3 / 0.2 / 0.1; normalized to sum to 1 so the score stays in [0, 1]. */
    weights: z
      .object({
        priority_coverage: z.number().min(0).default(0.4),
        mean_relevance: z.number().min(0).default(0.3),
        source_diversity: z.number().min(0).default(0.2),
        document_count: z.number().min(0).default(0.1),
      })
      .strict()
      .refine(
        (w) => w.priority_coverage + w.mean_relevance + w.source_diversity + w.document_count > 0,
        "weights must not all be 0",
      )
      .prefault({}),
    /** Seed 001: high >= 0.7, medium >= 0.5, low below. */
    grades: z
      .object({ high: unit.default(0.7), medium: unit.default(0.5) })
      .strict()
      .refine((g) => g.high >= g.medium, "grades.high must be >= grades.medium")
      .prefault({}),
    /** Seed 001's issue thresholds. */
    issues: z
      .object({
        min_priority_coverage: unit.default(0.5),
        min_mean_relevance: unit.default(0.6),
        min_sources: z.number().int().min(1).default(2),
        min_documents: z.number().int().min(1).default(10),
      })
      .strict()
      .prefault({}),
    /** Seed 001 AC 1: relevance is the "Top-3平均分", the mean score of the first 3 hits. */
    relevance_hits: z.number().int().min(1).default(3),
    /** Seed 001: diversity = distinct sources / 3 ("最多3个数据源"). */
    diversity_sources: z.number().int().min(1).default(3),
    /** Seed 001: document count score = min(n / 20, 1). */
    full_document_count: z.number().int().min(1).default(20),
    /** Seed 001 AC 3: retry_count >= 2 forces generate. */
    max_rewrites: z.number().int().min(0).max(10).default(2),
    /** Seed 001 AC 3: quality_score >= 0.5 exits early. */
    early_exit_score: unit.default(0.5),
    /** Seed 001 AC 3: total latency >= 10 s exits; aborts whatever call is in flight. */
    budget_ms: z.number().int().positive().default(10_000),
    /** Hits asked of the retriever per round (20 saturates the document-count dimension). */
    top_k: z.number().int().min(1).max(200).default(20),
  })
  .strict();

export const RewriteConfigSchema = z
  .object({
    /** Seed 001's QueryRewriter: ChatOpenAI(temperature=0.3). */
    temperature: z.number().min(0).max(2).default(0.3),
    /** The deterministic rewriter: top documents read and terms appended. */
    expansion_documents: z.number().int().min(1).default(3),
    expansion_terms: z.number().int().min(1).default(5),
    /** A rewritten query longer than this is cut. */
    max_query_chars: z.number().int().min(16).default(500),
  })
  .strict();

export const AnswerConfigSchema = z
  .object({
    /** Seed 000's Config.GENER_EPOCH: generations allowed before the loop ends unpassed. */
    gener_epoch: z.number().int().min(1).max(10).default(3),
    /** Wall-clock bound of the answer loop; aborts the call in flight and ends with the last answer. */
    budget_ms: z.number().int().positive().default(60_000),
    /** Retrieved chunks given to the generator, the reviewer and the gate. */
    max_context_items: z.number().int().min(1).max(50).default(8),
    /** Characters per chunk in the generation and revision prompts. */
    max_context_chars: z.number().int().min(50).default(1_500),
    /** The extractive generator: sentences in an answer. */
    extractive_sentences: z.number().int().min(1).max(20).default(3),
    /**
     * When the generator or judge model fails (after the client's retries): false (default) fails
     * the ask, naming the model and the cause; true answers extractively or reviews by the gate,
     * and records the fallback (an evaluation counts it in its summary).
     */
    llm_fallback: z.boolean().default(false),
  })
  .strict();

export const ObservationsConfigSchema = z
  .object({
    /**
     * Seed 000's observational_data.json, written as JSON Lines (one record per passing answer).
     * Relative paths resolve against the working directory; null writes no file.
     */
    path: z.string().min(1).nullable().default(".ragjudge/observational_data.jsonl"),
    /**
     * Each user's observations in a file of their own, named after `path` with the user's id
     * (`observational_data.<user id>.jsonl`), so no file holds two users' questions and answers.
     */
    per_user: z.boolean().default(true),
    /** A file that would grow past this many bytes is first rotated to `<file>.1` (10 MiB). */
    max_bytes: z
      .number()
      .int()
      .min(4096)
      .default(10 * 1024 * 1024),
    /** Rotated files kept, `<file>.1` the newest; the oldest beyond goes. 0 keeps none. */
    max_files: z.number().int().min(0).max(100).default(3),
  })
  .strict();

export type ObservationsConfig = z.infer<typeof ObservationsConfigSchema>;

export const LoopsConfigSchema = z
  .object({
    /** Prompt and message language; "auto" detects Chinese characters in the question. */
    language: z.enum(["auto", "en", "zh"]).default("auto"),
    quality: QualityConfigSchema.prefault({}),
    rewrite: RewriteConfigSchema.prefault({}),
    answer: AnswerConfigSchema.prefault({}),
    observations: ObservationsConfigSchema.prefault({}),
  })
  .strict();

export type LoopsConfig = z.infer<typeof LoopsConfigSchema>;
export type LoopsConfigInput = z.input<typeof LoopsConfigSchema>;
export type QualityConfig = z.infer<typeof QualityConfigSchema>;
export type QualityWeights = QualityConfig["weights"];

export const DEFAULT_LOOPS_CONFIG: LoopsConfig = LoopsConfigSchema.parse({});

/** Thrown for an invalid loops section; names the field at fault and what was expected. */
export class LoopsConfigError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_config";
  override readonly name = "LoopsConfigError";
  constructor(
    readonly field: string,
    readonly expected: string,
  ) {
    super(`${field}: expected ${expected}`);
  }
}

/** Validates a raw `rag.loops` section (or overrides in code); errors name the field. */
export function parseLoopsConfig(section: unknown): LoopsConfig {
  const result = LoopsConfigSchema.safeParse(section ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = ["loops", ...(issue?.path.map(String) ?? [])].join(".");
  const expected =
    issue?.code === "unrecognized_keys"
      ? `no unknown keys (found ${issue.keys.join(", ")})`
      : (issue?.message ?? "a valid value");
  throw new LoopsConfigError(field, expected);
}
