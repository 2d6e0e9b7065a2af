import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import {
  type GateConfig,
  GateConfigOverrideSchema,
  GateConfigSchema,
  resolveGateConfig,
} from "../gate/index.js";
import { type JudgesConfig, JudgesConfigSchema } from "../judges/index.js";
import {
  applyLlmEnv,
  CONFIG_FILE_NAMES,
  LLM_DEFAULTS,
  type LlmConfig,
  LlmConfigError,
  type LlmRole,
  parseLlmConfig,
  resolveModelConfig,
} from "../llm/index.js";
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
  /** The file read, if any. */
  source: string | undefined;
}

const FileSchema = z.looseObject({
  llm: z.unknown(),
  judges: z.unknown(),
  gate: z.unknown(),
  rag: z.object({ loops: z.unknown(), retrieval: z.unknown() }).strict().optional(),
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
  const field = [section, ...(issue?.path.map(String) ?? [])].join(".");
  return new LlmConfigError(field, issue?.message ?? "a valid value", source);
}

/**
 * The one loader: reads ragjudge.config.json (searched in cwd, or `path`), overlays the
 * environment on the `llm` section, and validates every section; errors name the field.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<RagjudgeConfig> {
  const env = options.env ?? process.env;
  const path = options.path ?? (await findConfigFile(options.cwd ?? process.cwd()));
  let file: Partial<z.infer<typeof FileSchema>> = {};
  if (path !== undefined) {
    if (!path.endsWith(".json")) throw new LlmConfigError(path, "a .json file", path);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path, "utf8"));
    } catch (cause) {
      throw new LlmConfigError("(file)", `readable JSON (${(cause as Error).message})`, path);
    }
    const parsed = FileSchema.safeParse(json);
    if (!parsed.success) throw new LlmConfigError("(root)", "a JSON object", path);
    file = parsed.data;
  }
  const source = path ?? "environment";
  const judges = JudgesConfigSchema.safeParse(file.judges ?? {});
  if (!judges.success) throw sectionError(source, "judges", judges.error);
  const gate = GateConfigOverrideSchema.safeParse(file.gate ?? {});
  if (!gate.success) throw sectionError(source, "gate", gate.error);
  const retrieval = RetrievalConfigSchema.safeParse(file.rag?.retrieval ?? {});
  if (!retrieval.success) throw sectionError(source, "rag.retrieval", retrieval.error);
  const loops = LoopsConfigSchema.safeParse(file.rag?.loops ?? {});
  if (!loops.success) throw sectionError(source, "rag.loops", loops.error);
  return {
    rag: { loops: loops.data, retrieval: retrieval.data },
    llm: parseLlmConfig(applyLlmEnv(file.llm, env), source),
    judges: judges.data,
    gate: resolveGateConfig(GateConfigSchema.parse({}), gate.data),
    source: path,
  };
}

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
