import { z } from "zod";
import { LlmConfigError } from "./errors.js";
import { REDACTED } from "./redact.js";

/**
 * Model roles. `judge` is seed 000's `LLM_MUTI_AGENT`: it always gets its own client instance,
 * separate from the generator's, even when both name the same model.
 */
export const LLM_ROLES = ["generator", "judge", "rewriter", "embedder"] as const;
export type LlmRole = (typeof LLM_ROLES)[number];

/**
 * How a model is asked for JSON. `json_schema` sends the zod schema as a strict JSON Schema;
 * `json_object` asks for any JSON object; `prompt` sends no response_format and relies on the
 * prompt alone (llama.cpp and older servers). Extraction, validation and one re-ask happen in
 * every mode.
 */
export const StructuredOutputModeSchema = z.enum(["json_schema", "json_object", "prompt"]);
export type StructuredOutputMode = z.infer<typeof StructuredOutputModeSchema>;

/** Documented defaults (docs/judges.md). `LlmConfigSchema.parse({})` yields them. */
export const LLM_DEFAULTS = {
  base_url: "https://api.openai.com/v1",
  timeout_ms: 60_000,
  max_retries: 3,
  backoff_ms: 500,
  max_backoff_ms: 30_000,
  /** A ceiling: the adaptive limiter starts at 8 and finds the provider's limit below it. */
  max_concurrency: 64,
  temperature: 0,
  seed: 42,
  structured_output: "json_object",
  models: {
    generator: "gpt-4o-mini",
    judge: "gpt-4o-mini",
    rewriter: "gpt-4o-mini",
    embedder: "text-embedding-3-small",
  },
} as const satisfies {
  models: Record<LlmRole, string>;
  structured_output: StructuredOutputMode;
  [key: string]: unknown;
};

const baseUrl = z
  .string()
  .regex(/^https?:\/\/[^\s/]+/, "an http(s) URL such as http://127.0.0.1:11434/v1");
const apiKey = z.string().min(1, "a non-empty string");

/** Settings that can be given once for all roles and overridden per role. */
const sharedSettings = {
  base_url: baseUrl,
  api_key: apiKey,
  /** Per attempt; a call that times out is retried like a 5xx. */
  timeout_ms: z.number().int().positive(),
  /** Retries after the first attempt, on 408/409/429/5xx, timeouts and connection errors. */
  max_retries: z.number().int().min(0).max(10),
  /** First backoff delay; doubles per retry with jitter. A Retry-After header takes precedence. */
  backoff_ms: z.number().int().min(0),
  /** Longest wait before a retry; a Retry-After above it fails the call at once. */
  max_backoff_ms: z.number().int().min(0),
  /**
   * Most concurrent calls per provider (base URL). The limiter starts at 8, grows while calls
   * succeed, halves on a 429 and probes slowly above the level that drew it.
   */
  max_concurrency: z.number().int().min(1).max(1024),
  temperature: z.number().min(0).max(2),
  seed: z.number().int(),
  max_tokens: z.number().int().positive(),
  structured_output: StructuredOutputModeSchema,
};

const RoleSettingsSchema = (role: LlmRole) =>
  z
    .object({
      model: z.string().min(1).default(LLM_DEFAULTS.models[role]),
      ...Object.fromEntries(Object.entries(sharedSettings).map(([k, s]) => [k, s.optional()])),
    } as { model: z.ZodDefault<z.ZodString> } & {
      [K in keyof typeof sharedSettings]: z.ZodOptional<(typeof sharedSettings)[K]>;
    })
    .strict();

/**
 * The `llm` section of ragjudge.config.json. Top-level settings apply to every role; a role's own
 * settings win. Unknown keys are rejected so a typo does not silently fall back to a default.
 */
export const LlmConfigSchema = z
  .object({
    base_url: sharedSettings.base_url.default(LLM_DEFAULTS.base_url),
    api_key: sharedSettings.api_key.optional(),
    timeout_ms: sharedSettings.timeout_ms.default(LLM_DEFAULTS.timeout_ms),
    max_retries: sharedSettings.max_retries.default(LLM_DEFAULTS.max_retries),
    backoff_ms: sharedSettings.backoff_ms.default(LLM_DEFAULTS.backoff_ms),
    max_backoff_ms: sharedSettings.max_backoff_ms.default(LLM_DEFAULTS.max_backoff_ms),
    max_concurrency: sharedSettings.max_concurrency.default(LLM_DEFAULTS.max_concurrency),
    temperature: sharedSettings.temperature.default(LLM_DEFAULTS.temperature),
    seed: sharedSettings.seed.default(LLM_DEFAULTS.seed),
    max_tokens: sharedSettings.max_tokens.optional(),
    structured_output: sharedSettings.structured_output.default(LLM_DEFAULTS.structured_output),
    roles: z
      .object({
        generator: RoleSettingsSchema("generator").prefault({}),
        judge: RoleSettingsSchema("judge").prefault({}),
        rewriter: RoleSettingsSchema("rewriter").prefault({}),
        embedder: RoleSettingsSchema("embedder").prefault({}),
      })
      .strict()
      .prefault({}),
  })
  .strict();
export type LlmConfig = z.infer<typeof LlmConfigSchema>;
export type LlmConfigInput = z.input<typeof LlmConfigSchema>;

/** Everything one client needs: a role's settings with the shared ones filled in. */
export interface ModelConfig {
  role: LlmRole;
  model: string;
  base_url: string;
  api_key: string | undefined;
  timeout_ms: number;
  max_retries: number;
  backoff_ms: number;
  max_backoff_ms: number;
  max_concurrency: number;
  temperature: number;
  seed: number;
  max_tokens: number | undefined;
  structured_output: StructuredOutputMode;
}

export function resolveModelConfig(config: LlmConfig, role: LlmRole): ModelConfig {
  const own = config.roles[role];
  return {
    role,
    model: own.model,
    base_url: (own.base_url ?? config.base_url).replace(/\/+$/, ""),
    api_key: own.api_key ?? config.api_key,
    timeout_ms: own.timeout_ms ?? config.timeout_ms,
    max_retries: own.max_retries ?? config.max_retries,
    backoff_ms: own.backoff_ms ?? config.backoff_ms,
    max_backoff_ms: own.max_backoff_ms ?? config.max_backoff_ms,
    max_concurrency: own.max_concurrency ?? config.max_concurrency,
    temperature: own.temperature ?? config.temperature,
    seed: own.seed ?? config.seed,
    max_tokens: own.max_tokens ?? config.max_tokens,
    structured_output: own.structured_output ?? config.structured_output,
  };
}

type Env = Record<string, string | undefined>;

/**
 * Overlays the environment on the file's `llm` section. Precedence, most specific first:
 * `RAGJUDGE_<ROLE>_*` > the file's `roles.<role>` > `OPENAI_BASE_URL`/`OPENAI_API_KEY` > the file's
 * top level > LLM_DEFAULTS.
 */
export function applyLlmEnv(section: unknown, env: Env): unknown {
  // A malformed section is passed through untouched so validation reports it.
  if (section !== undefined && !isRecord(section)) return section;
  const base: Record<string, unknown> = { ...section };
  const nonEmpty = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const openaiBase = nonEmpty("OPENAI_BASE_URL");
  const openaiKey = nonEmpty("OPENAI_API_KEY");
  if (openaiBase) base.base_url = openaiBase;
  if (openaiKey) base.api_key = openaiKey;
  if (base.roles !== undefined && !isRecord(base.roles)) return base;
  const roles: Record<string, unknown> = { ...base.roles };
  for (const role of LLM_ROLES) {
    const prefix = `RAGJUDGE_${role.toUpperCase()}_`;
    const overrides: Record<string, string> = {};
    const model = nonEmpty(`${prefix}MODEL`);
    const url = nonEmpty(`${prefix}BASE_URL`);
    const key = nonEmpty(`${prefix}API_KEY`);
    if (model) overrides.model = model;
    if (url) overrides.base_url = url;
    if (key) overrides.api_key = key;
    if (Object.keys(overrides).length === 0) continue;
    const current = roles[role];
    if (current !== undefined && !isRecord(current)) continue;
    roles[role] = { ...current, ...overrides };
  }
  if (base.roles !== undefined || Object.keys(roles).length > 0) base.roles = roles;
  return base;
}

/** Validates a raw `llm` section; errors name the field at fault, never a key's value. */
export function parseLlmConfig(section: unknown, source = "llm config"): LlmConfig {
  const result = LlmConfigSchema.safeParse(section ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue ? ["llm", ...issue.path.map(String)].join(".") : "llm";
  const expected = issue
    ? issue.code === "unrecognized_keys"
      ? `no unknown keys (found ${issue.keys.join(", ")})`
      : issue.message
    : "a valid object";
  throw new LlmConfigError(field, expected, source);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}


/** A base URL with any user:password@ part replaced, for records and logs. */
export function redactUrlCredentials(url: string): string {
  return url.replace(/^(https?:\/\/)[^/@\s]+@/, `$1${REDACTED}@`);
}

/**
 * A copy safe to log, store in a run snapshot or return from an API: every `api_key` (at any depth)
 * becomes "[REDACTED]", as do credentials inside a `base_url`; an absent key stays absent so the
 * snapshot still says whether one was set.
 */
export function redactLlmConfig<T>(config: T): T {
  return redactValue(config) as T;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "api_key" && typeof inner === "string") out[key] = REDACTED;
    else if (key === "base_url" && typeof inner === "string")
      out[key] = redactUrlCredentials(inner);
    else out[key] = redactValue(inner);
  }
  return out;
}
