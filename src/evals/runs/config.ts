import { createHash } from "node:crypto";
import { z } from "zod";
import type { RagjudgeConfig } from "../../config/index.js";
import { canonicalJson, GateConfigSchema, ruleVersion } from "../../gate/index.js";
import {
  JUDGE_KINDS,
  JudgesConfigSchema,
  REFERENCE_PROMPTS,
  REVIEW_PROMPTS,
  RUBRIC_FEWSHOT_LABELS,
  RUBRIC_PROMPTS,
} from "../../judges/index.js";
import { LLM_ROLES, type LlmConfig, resolveModelConfig } from "../../llm/index.js";
import { LoopsConfigSchema, RetrievalConfigSchema } from "../../rag/index.js";
import { isLlmConfigured } from "../../config/index.js";

export const JudgeKindSchema = z.enum(JUDGE_KINDS);

/** How an evaluation reaches the system under test. */
export const BotConfigSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("builtin") }),
  z.object({
    kind: z.literal("http"),
    // Credentials never go in the URL (it is stored): the bot's token comes from the worker's
    // environment (RAGJUDGE_BOT_TOKEN).
    url: z
      .url({ protocol: /^https?$/, error: "an http(s) URL" })
      .refine((url) => !new URL(url).username && !new URL(url).password, {
        error: "no credentials in the URL; set RAGJUDGE_BOT_TOKEN instead",
      }),
    timeout_ms: z.number().int().min(100).max(600_000).default(60_000),
    retries: z.number().int().min(0).max(10).default(2),
  }),
]);
export type BotConfig = z.infer<typeof BotConfigSchema>;

/** Per-item retry policy for bot and judge errors (backoff doubles from base_ms). */
export const RetryPolicySchema = z.object({
  attempts: z.number().int().min(1).max(10).default(3),
  base_ms: z.number().int().min(0).max(60_000).default(500),
  max_ms: z.number().int().min(0).max(600_000).default(10_000),
});

/** What a user asks for when starting a run (API body, CLI flags). */
export const EvaluationRequestSchema = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  /** The collection the built-in bot answers from (id or name); optional for an HTTP bot. */
  collection_id: z.string().trim().min(1).max(256).nullish(),
  question_set_id: z.uuid({ error: "a question set id" }),
  bot: BotConfigSchema.default({ kind: "builtin" }),
  judges: z.array(JudgeKindSchema).min(1).default(["offline"]),
  /** Bypass the LLM response cache for this run. */
  no_cache: z.boolean().default(false),
  retry: RetryPolicySchema.default({ attempts: 3, base_ms: 500, max_ms: 10_000 }),
});
export type EvaluationRequest = z.infer<typeof EvaluationRequestSchema>;

/**
 * The snapshot stored on the evaluation: everything that decided its results (bot, judges, their
 * settings, models, prompt versions), never a key. Workers run an item from this, not from their
 * own files, so a run's settings cannot drift while it runs.
 */
export const EvaluationSnapshotSchema = z.object({
  bot: BotConfigSchema,
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

/** The stored snapshot for a request under the loaded configuration. */
export function evaluationSnapshot(
  request: EvaluationRequest,
  config: Pick<RagjudgeConfig, "llm" | "judges" | "gate" | "rag">,
  collectionId: string | null,
): EvaluationSnapshot {
  return EvaluationSnapshotSchema.parse({
    bot: request.bot,
    collection_id: collectionId,
    judges: request.judges,
    judges_config: config.judges,
    gate: config.gate,
    rule_version: ruleVersion(config.gate),
    rag: config.rag,
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
  });
}

/** Seed 003 evaluations.bot_id: "builtin" or the bot's public URL. */
export function botIdOf(bot: BotConfig): string {
  return bot.kind === "builtin" ? "builtin" : publicUrl(bot.url);
}

/** Seed 003 evaluations.judge_llm_model_id: the judge model when an LLM judge runs. */
export function judgeModelIdOf(snapshot: EvaluationSnapshot): string {
  const llmJudges = snapshot.judges.filter((kind) => kind !== "offline");
  if (llmJudges.length === 0) return "offline";
  return snapshot.models.judge?.model ?? "unconfigured";
}
