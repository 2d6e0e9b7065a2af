import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { type BotNetworkConfig, BotNetworkConfigSchema } from "./bots.js";
import {
  type GateConfig,
  GateConfigOverrideSchema,
  GateConfigSchema,
  resolveGateConfig,
} from "../gate/index.js";
import { type JudgesConfig, JudgesConfigSchema } from "../judges/index.js";
import {
  applyLlmEnv,
  LLM_DEFAULTS,
  LLM_ROLES,
  type LlmConfig,
  LlmConfigError,
  type LlmRole,
  parseLlmConfig,
  type PriceTable,
  PriceTableSchema,
  priceTableWith,
  registerSecrets,
  resolveModelConfig,
} from "../llm/index.js";
import { SECRET_KEY_ENV, SecretKey, SecretKeyFormatError } from "../store/index.js";
import {
  type LoopsConfig,
  LoopsConfigSchema,
  type RetrievalConfig,
  RetrievalConfigSchema,
} from "../rag/index.js";

/** The whole of ragjudge.config.json: one file, one section per layer, each with its own schema. */
export interface RagjudgeConfig {
  llm: LlmConfig;
  judges: JudgesConfig;
  gate: GateConfig;
  /** The built-in RAG bot: its loops (seeds 000 and 001) and its retrieval. */
  rag: { loops: LoopsConfig; retrieval: RetrievalConfig };
  /** Where HTTP bots named through the API may connect (docs/security.md). */
  bots: BotNetworkConfig;
  /**
   * RAGJUDGE_SECRET_KEY (environment only, never the file): users' bot secrets are stored
   * encrypted with it (docs/security.md). Serializes as "[secret key]".
   */
  secret_key: SecretKey | undefined;
  /** Production answers (POST /api/v1/answers, ragjudge/client): how long they are kept. */
  production: ProductionConfig;
  /**
   * USD per million tokens by model: the dated defaults (llm/prices.ts) with the file's `prices`
   * over them (docs/cost.md). A model in neither has no price.
   */
  prices: PriceTable;
  /** The file read, if any. */
  source: string | undefined;
}

export const ProductionConfigSchema = z
  .object({
    /** Whole days of answers kept; older days are dropped by `serve` (docs/production.md). */
    retention_days: z.number().int().min(1).max(3650).default(30),
    /**
     * How long an OpenTelemetry trace waits for more spans after its last one before it is
     * assembled (or stored as rejected), in milliseconds (docs/production.md).
     */
    trace_wait_ms: z.number().int().min(50).max(600_000).default(10_000),
    /** How often `serve` evaluates the alert rules, in milliseconds (docs/production.md). */
    alert_interval_ms: z.number().int().min(100).max(3_600_000).default(30_000),
    /**
     * Metadata keys the monitor's charts break down by: each answer is also summed per value of
     * these keys (docs/production.md). Keys with few values only (tenant, region, prompt
     * version), never one per user or request.
     */
    breakdown_keys: z.array(z.string().min(1).max(128)).max(16).default([]),
  })
  .strict();
export type ProductionConfig = z.infer<typeof ProductionConfigSchema>;

const FileSchema = z.looseObject({
  llm: z.unknown().optional(),
  judges: z.unknown().optional(),
  gate: z.unknown().optional(),
  bots: z.unknown().optional(),
  production: z.unknown().optional(),
  prices: z.unknown().optional(),
  rag: z
    .object({ loops: z.unknown().optional(), retrieval: z.unknown().optional() })
    .strict()
    .optional(),
});

export interface LoadConfigOptions {
  /** Directory searched for ragjudge.config.json; default the working directory. */
  cwd?: string;
  /** An explicit file; overrides the search. */
  path?: string;
  env?: Record<string, string | undefined>;
}

function sectionError(source: string, section: string, error: z.ZodError): LlmConfigError {
  const issue = error.issues[0];
  const field = [section, ...(issue?.path.map(String) ?? [])].filter(Boolean).join(".") || "(root)";
  return new LlmConfigError(field, issue?.message ?? "a valid value", source);
}

/**
 * The one loader: reads ragjudge.config.json or .yaml (searched in cwd, or `path`), overlays the
 * environment on the `llm` section, and validates every section; errors name the field.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<RagjudgeConfig> {
  const env = options.env ?? process.env;
  const path = options.path ?? (await findConfigFile(options.cwd ?? process.cwd()));
  let file: Partial<z.infer<typeof FileSchema>> = {};
  if (path !== undefined) {
    const yaml = /\.ya?ml$/i.test(path);
    let json: unknown;
    try {
      const text = await readFile(path, "utf8");
      json = yaml ? parseYaml(text) : JSON.parse(text);
    } catch (cause) {
      const format = yaml ? "YAML" : "JSON";
      throw new LlmConfigError("(file)", `valid ${format} (${(cause as Error).message})`, path);
    }
    const parsed = FileSchema.safeParse(json);
    if (!parsed.success) throw sectionError(path, "", parsed.error);
    file = parsed.data;
  }
  const source = path ?? "environment";
  const judges = JudgesConfigSchema.safeParse(file.judges ?? {});
  if (!judges.success) throw sectionError(source, "judges", judges.error);
  const gate = GateConfigOverrideSchema.safeParse(file.gate ?? {});
  if (!gate.success) throw sectionError(source, "gate", gate.error);
  const retrieval = RetrievalConfigSchema.safeParse(file.rag?.retrieval ?? {});
  if (!retrieval.success) throw sectionError(source, "rag.retrieval", retrieval.error);
  const loops = LoopsConfigSchema.safeParse(applyObservationsEnv(file.rag?.loops, env));
  if (!loops.success) throw sectionError(source, "rag.loops", loops.error);
  const bots = BotNetworkConfigSchema.safeParse(applyBotsEnv(file.bots, env));
  if (!bots.success) throw sectionError(source, "bots", bots.error);
  const production = ProductionConfigSchema.safeParse(file.production ?? {});
  if (!production.success) throw sectionError(source, "production", production.error);
  const prices = PriceTableSchema.safeParse(file.prices ?? {});
  if (!prices.success) throw sectionError(source, "prices", prices.error);
  const secretKey = secretKeyOf(env);
  const llm = parseLlmConfig(applyLlmEnv(file.llm, env), source);
  // Every role's key is redacted from error texts from now on, whichever layer makes them.
  registerSecrets(LLM_ROLES.map((role) => resolveModelConfig(llm, role).api_key));
  return {
    rag: { loops: loops.data, retrieval: retrieval.data },
    llm,
    judges: judges.data,
    bots: bots.data,
    secret_key: secretKey,
    production: production.data,
    prices: priceTableWith(prices.data),
    gate: resolveGateConfig(GateConfigSchema.parse({}), gate.data),
    source: path,
  };
}

/** The operator's key from the environment; a malformed one is an error naming the variable. */
function secretKeyOf(env: Record<string, string | undefined>): SecretKey | undefined {
  const text = env[SECRET_KEY_ENV];
  if (text === undefined || text.trim() === "") return undefined;
  // Redacted from error texts like the LLM keys, should it ever end up in one.
  registerSecrets([text.trim()]);
  try {
    return SecretKey.fromText(text);
  } catch (error) {
    if (!(error instanceof SecretKeyFormatError)) throw error;
    throw new LlmConfigError(SECRET_KEY_ENV, error.expected, "environment");
  }
}

/**
 * RAGJUDGE_BOTS_ALLOW_HOSTS and RAGJUDGE_BOTS_ALLOW_NETWORKS (comma-separated) add to the file's
 * lists; RAGJUDGE_BOTS_ALLOW_PUBLIC (true/false) replaces its flag. A malformed file section is
 * left for the schema to name.
 */
function applyBotsEnv(section: unknown, env: Record<string, string | undefined>): unknown {
  if (section !== undefined && (typeof section !== "object" || section === null)) return section;
  const out: Record<string, unknown> = { ...(section as Record<string, unknown> | undefined) };
  const list = (name: string) =>
    (env[name] ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
  const add = (key: string, values: string[]) => {
    if (values.length === 0) return;
    out[key] = [...(Array.isArray(out[key]) ? (out[key] as unknown[]) : []), ...values];
  };
  add("allow_hosts", list("RAGJUDGE_BOTS_ALLOW_HOSTS"));
  add("allow_networks", list("RAGJUDGE_BOTS_ALLOW_NETWORKS"));
  const allowPublic = env.RAGJUDGE_BOTS_ALLOW_PUBLIC?.trim().toLowerCase();
  if (allowPublic === "true" || allowPublic === "false") out.allow_public = allowPublic === "true";
  return out;
}

/**
 * RAGJUDGE_OBSERVATIONS_FILE replaces `rag.loops.observations.path`: `off` writes no
 * observational_data file, anything else is the file's path. A malformed section is left for the
 * schema to name.
 */
function applyObservationsEnv(loops: unknown, env: Record<string, string | undefined>): unknown {
  const value = env.RAGJUDGE_OBSERVATIONS_FILE?.trim();
  if (!value || (loops !== undefined && (typeof loops !== "object" || loops === null))) {
    return loops ?? {};
  }
  const section = (loops as Record<string, unknown> | undefined)?.observations;
  if (section !== undefined && (typeof section !== "object" || section === null)) return loops;
  return {
    ...(loops as Record<string, unknown> | undefined),
    observations: {
      ...(section as Record<string, unknown> | undefined),
      path: value.toLowerCase() === "off" ? null : value,
    },
  };
}

/** Searched in this order; the first that exists is read. */
export const CONFIG_FILE_NAMES = [
  "ragjudge.config.json",
  "ragjudge.config.yaml",
  "ragjudge.config.yml",
];

async function findConfigFile(cwd: string): Promise<string | undefined> {
  for (const name of CONFIG_FILE_NAMES) {
    try {
      await access(join(cwd, name));
      return join(cwd, name);
    } catch {
      // not there: try the next name
    }
  }
  return undefined;
}

/**
 * Whether a role points at a real server: an API key, or a base URL other than the default
 * (local servers such as Ollama need no key). Without one, the offline judges serve instead.
 */
export function isLlmConfigured(config: LlmConfig, role: LlmRole): boolean {
  const model = resolveModelConfig(config, role);
  return (
    model.api_key !== undefined || model.base_url !== LLM_DEFAULTS.base_url.replace(/\/+$/, "")
  );
}
