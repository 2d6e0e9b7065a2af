import { createHash } from "node:crypto";
import { z } from "zod";
import type { RagjudgeConfig } from "../../config/index.js";
import { GateConfigSchema, ruleVersion } from "../../gate/index.js";
import { canonicalJson } from "../../text/index.js";
import {
  JUDGE_KINDS,
  needsLlm,
  JudgesConfigSchema,
  REFERENCE_PROMPTS,
  REVIEW_PROMPTS,
  RUBRIC_FEWSHOT_LABELS,
  RUBRIC_PROMPTS,
} from "../../judges/index.js";
import {
  DEFAULT_PRICES,
  LLM_ROLES,
  type LlmConfig,
  PriceTableSchema,
  resolveModelConfig,
} from "../../llm/index.js";
import { LoopsConfigSchema, RetrievalConfigSchema } from "../../rag/index.js";
import { isLlmConfigured } from "../../config/index.js";
import { AnswerLineSchema } from "../answers/index.js";
import { BotUrlSchema } from "../bots/index.js";
import { QUESTION_LIMITS } from "../questions/index.js";
import { DEFAULT_RETRIEVAL_K } from "./retrieval.js";

export const JudgeKindSchema = z.enum(JUDGE_KINDS);

const HttpBotFields = {
  kind: z.literal("http"),
  timeout_ms: z.number().int().min(100).max(600_000).default(60_000),
  retries: z.number().int().min(0).max(10).default(2),
};

/** How an evaluation reaches the system under test: a URL, or a bot the user registered. */
export const BotConfigSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("builtin") }),
  z
    .object({
      ...HttpBotFields,
      url: BotUrlSchema.optional(),
      /** A registered bot (POST /api/v1/bots): its URL and secret come from there. */
      bot_id: z.uuid({ error: "a registered bot's id" }).optional(),
    })
    .refine((bot) => (bot.url === undefined) !== (bot.bot_id === undefined), {
      error: "exactly one of url and bot_id",
      path: ["url"],
    }),
  // Precomputed answers (issue 14 §1), stored per question at the run's start.
  z.object({ kind: z.literal("answers") }),
]);
export type BotConfig = z.infer<typeof BotConfigSchema>;

/** The bot as a run stores it: a registered bot keeps its id and, for reports, its URL. */
export const SnapshotBotSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("builtin") }),
  z.object({ ...HttpBotFields, url: BotUrlSchema, bot_id: z.uuid().optional() }),
  z.object({ kind: z.literal("answers") }),
]);
export type SnapshotBot = z.infer<typeof SnapshotBotSchema>;

/**
 * Who started a run: `cli` on the operator's machine (HTTP bots reach any address and get
 * RAGJUDGE_BOT_TOKEN), or `api` (the operator's bot network policy, and only the user's own
 * registered credentials). Snapshots from before the field read as `api`, the safe side.
 */
export const SubmittedViaSchema = z.enum(["cli", "api"]);
export type SubmittedVia = z.infer<typeof SubmittedViaSchema>;

/** Per-item retry policy for bot and judge errors (backoff doubles from base_ms). */
export const RetryPolicySchema = z.object({
  attempts: z.number().int().min(1).max(10).default(3),
  base_ms: z.number().int().min(0).max(60_000).default(500),
  max_ms: z.number().int().min(0).max(600_000).default(10_000),
});

const RetrievalKSchema = z.number().int().min(1).max(200);

/** What a user asks for when starting a run (API body, CLI flags). */
export const EvaluationRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(255).optional(),
    /** The collection the built-in bot answers from (id or name); optional for an HTTP bot. */
    collection_id: z.string().trim().min(1).max(256).nullish(),
    /** The set to run; without it, `answers` brings its own questions (a new set). */
    question_set_id: z.uuid({ error: "a question set id" }).optional(),
    /**
     * Precomputed answers to judge instead of asking a bot (the bot is then `{kind: "answers"}`).
     * With `question_set_id` they are matched to its questions by text; every question needs one.
     */
    answers: z.array(AnswerLineSchema).min(1).max(QUESTION_LIMITS.questionsPerSet).optional(),
    bot: BotConfigSchema.default({ kind: "builtin" }),
    judges: z.array(JudgeKindSchema).min(1).default(["offline"]),
    /** Bypass the LLM response cache for this run. */
    no_cache: z.boolean().default(false),
    retry: RetryPolicySchema.default({ attempts: 3, base_ms: 500, max_ms: 10_000 }),
    /** The cutoff k of hit rate, recall, precision and nDCG against questions' relevant items. */
    retrieval_k: RetrievalKSchema.default(DEFAULT_RETRIEVAL_K),
    /**
     * Pause the run before its LLM cost passes this many US dollars (docs/cost.md). Each item
     * starts only when what is spent, what items in flight may spend and a conservative estimate
     * of its own cost stay within it.
     */
    max_cost_usd: z.number().positive().max(1_000_000).optional(),
  })
  .superRefine((request, ctx) => {
    if (!request.question_set_id && !request.answers) {
      ctx.addIssue({
        code: "custom",
        path: ["question_set_id"],
        message: "a question set id, or answers that bring their own questions",
      });
    }
    if (request.bot.kind === "answers" && !request.answers) {
      ctx.addIssue({ code: "custom", path: ["answers"], message: "the answers to judge" });
    }
  })
  // Answers are the system under test: no bot is asked.
  .transform((request) =>
    request.answers ? { ...request, bot: { kind: "answers" as const } } : request,
  );
export type EvaluationRequest = z.infer<typeof EvaluationRequestSchema>;

/**
 * The snapshot stored on the evaluation: everything that decided its results (bot, judges, their
 * settings, models, prompt versions), never a key. Workers run an item from this, not from their
 * own files, so a run's settings cannot drift while it runs.
 */
export const EvaluationSnapshotSchema = z.object({
  bot: SnapshotBotSchema,
  submitted_via: SubmittedViaSchema.default("api"),
  collection_id: z.string().nullable(),
  judges: z.array(JudgeKindSchema),
  judges_config: JudgesConfigSchema,
  gate: GateConfigSchema,
  rule_version: z.string(),
  rag: z.object({ loops: LoopsConfigSchema, retrieval: RetrievalConfigSchema }),
  models: z.record(
    z.string(),
    z.object({ model: z.string(), provider: z.string(), output_mode: z.string() }),
  ),
  prompt_versions: z.record(z.string(), z.string()),
  no_cache: z.boolean(),
  retry: RetryPolicySchema,
  // Snapshots from before the field read as the default.
  retrieval_k: RetrievalKSchema.default(DEFAULT_RETRIEVAL_K),
  /** USD per million tokens the run's costs are priced at (defaults and config; llm/prices.ts). */
  prices: PriceTableSchema.default(DEFAULT_PRICES),
  /** The run's cost limit in USD, or null for none. */
  max_cost_usd: z.number().positive().nullable().default(null),
});
export type EvaluationSnapshot = z.infer<typeof EvaluationSnapshotSchema>;

function promptVersion(prompts: unknown): string {
  return createHash("sha256").update(canonicalJson(prompts)).digest("hex").slice(0, 12);
}

/** The URL a report may show: no credentials, no query string. */
export function publicUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    return parsed.toString();
  } catch {
    return "(invalid url)";
  }
}

function modelsOf(llm: LlmConfig): EvaluationSnapshot["models"] {
  const models: EvaluationSnapshot["models"] = {};
  for (const role of LLM_ROLES) {
    if (!isLlmConfigured(llm, role)) continue;
    const resolved = resolveModelConfig(llm, role);
    models[role] = {
      model: resolved.model,
      provider: publicUrl(resolved.base_url),
      output_mode: resolved.structured_output,
    };
  }
  return models;
}

/**
 * The stored snapshot for a request under the loaded configuration. `bot` is the request's bot
 * resolved (a registered bot's URL filled in); default the request's own.
 */
export function evaluationSnapshot(
  request: EvaluationRequest,
  config: Pick<RagjudgeConfig, "llm" | "judges" | "gate" | "rag"> &
    Partial<Pick<RagjudgeConfig, "prices">>,
  collectionId: string | null,
  resolved: { bot?: SnapshotBot; submittedVia?: SubmittedVia } = {},
): EvaluationSnapshot {
  return EvaluationSnapshotSchema.parse({
    bot: resolved.bot ?? request.bot,
    // Unsaid reads as `api`, the safe side, as for snapshots from before the field.
    submitted_via: resolved.submittedVia ?? "api",
    collection_id: collectionId,
    judges: request.judges,
    judges_config: config.judges,
    gate: config.gate,
    rule_version: ruleVersion(config.gate),
    // Where the starter writes observations is a path on its machine: no business of the user's,
    // and never used by a run (a worker writes to its own, see worker.ts).
    rag: { ...config.rag, loops: { ...config.rag.loops, observations: { path: null } } },
    models: modelsOf(config.llm),
    prompt_versions: {
      review: promptVersion(REVIEW_PROMPTS),
      // Person-scored few-shot examples are part of the rubric prompt: new ones, a new version.
      rubric: promptVersion(
        config.judges.rubric.fewshot.length === 0
          ? RUBRIC_PROMPTS
          : {
              prompts: RUBRIC_PROMPTS,
              labels: RUBRIC_FEWSHOT_LABELS,
              fewshot: config.judges.rubric.fewshot,
            },
      ),
      reference: promptVersion(REFERENCE_PROMPTS),
    },
    no_cache: request.no_cache,
    retry: request.retry,
    retrieval_k: request.retrieval_k,
    prices: config.prices ?? DEFAULT_PRICES,
    max_cost_usd: request.max_cost_usd ?? null,
  });
}

/**
 * A stored snapshot as users may read it. New snapshots hold no server path; ones stored before
 * that still carry the starter's observations file path, which is left out here.
 */
export function publicSnapshot(config: unknown): unknown {
  const loops = (config as { rag?: { loops?: { observations?: unknown } } } | null)?.rag?.loops;
  if (!loops || typeof loops.observations !== "object" || loops.observations === null) {
    return config;
  }
  const snapshot = config as { rag: { loops: Record<string, unknown> } };
  return {
    ...snapshot,
    rag: { ...snapshot.rag, loops: { ...snapshot.rag.loops, observations: { path: null } } },
  };
}

/** Seed 003 evaluations.bot_id: "builtin", "answers" or the bot's public URL. */
export function botIdOf(bot: SnapshotBot): string {
  return bot.kind === "http" ? publicUrl(bot.url) : bot.kind;
}

/** Seed 003 evaluations.judge_llm_model_id: the judge model when an LLM judge runs. */
export function judgeModelIdOf(snapshot: EvaluationSnapshot): string {
  const llmJudges = snapshot.judges.filter(needsLlm);
  if (llmJudges.length === 0) return "offline";
  return snapshot.models.judge?.model ?? "unconfigured";
}
