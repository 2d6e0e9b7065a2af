import { isAbsolute, join } from "node:path";
import { configuredClients, type RagjudgeConfig } from "../config/index.js";
import type { LlmClients } from "../llm/index.js";
import { DEFAULT_LOOPS_CONFIG, type LoopsConfig } from "../rag/index.js";
import { llmResponseCache } from "../store/index.js";
import type { StoreSession } from "./store-session.js";

/** Clients of the configured roles, with the user's database response cache unless disabled. */
export function sessionClients(
  config: RagjudgeConfig,
  session: StoreSession,
  options: { noCache?: boolean } = {},
): Partial<LlmClients> {
  return configuredClients(
    config.llm,
    options.noCache ? {} : { cache: llmResponseCache(session.store.db, session.actor.workspaceId) },
  );
}

/**
 * The loops' settings for this session: observational_data.jsonl defaults to the ragjudge home
 * (beside the embedded database), not the working directory, unless the file names a path.
 */
export function sessionLoopsConfig(config: RagjudgeConfig, session: StoreSession): LoopsConfig {
  const path = config.rag.loops.observations.path;
  if (path !== DEFAULT_LOOPS_CONFIG.observations.path || path === null || isAbsolute(path)) {
    return config.rag.loops;
  }
  return {
    ...config.rag.loops,
    observations: {
      ...config.rag.loops.observations,
      path: join(session.home, "observational_data.jsonl"),
    },
  };
}
