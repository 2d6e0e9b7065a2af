import { configuredClients, type RagjudgeConfig } from "../config/index.js";
import type { LlmClients } from "../llm/index.js";
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
    options.noCache ? {} : { cache: llmResponseCache(session.store.db, session.user.id) },
  );
}
