import {
  createLlmClient,
  LLM_ROLES,
  type LlmClientDeps,
  type LlmClients,
  type LlmConfig,
  resolveModelConfig,
} from "../llm/index.js";
import { isLlmConfigured } from "./load.js";

/**
 * A client for each role that points at a real server; a role left out works offline (extractive
 * generator, deterministic rewriter, offline review). Each role gets its own instance, so the
 * judge never shares the generator's (seed 000).
 */
export function configuredClients(llm: LlmConfig, deps: LlmClientDeps = {}): Partial<LlmClients> {
  const clients: Partial<LlmClients> = {};
  for (const role of LLM_ROLES) {
    if (isLlmConfigured(llm, role))
      clients[role] = createLlmClient(resolveModelConfig(llm, role), deps);
  }
  return clients;
}
