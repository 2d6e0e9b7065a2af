import { configuredClients } from "./clients.js";
import type { LlmClients, LlmConfig } from "../llm/index.js";
import { type Db, llmResponseCache } from "../store/index.js";

export type UserClients = (workspaceId: string) => Partial<LlmClients>;

/**
 * LLM clients per user, made on first use: the response cache is per user, and each role keeps
 * its own client (the judge never shares the generator's, seed 000).
 */
export function userClients(db: Db, llm: LlmConfig | undefined): UserClients {
  const byWorkspace = new Map<string, Partial<LlmClients>>();
  return (workspaceId) => {
    if (!llm) return {};
    let clients = byWorkspace.get(workspaceId);
    if (!clients) {
      clients = configuredClients(llm, { cache: llmResponseCache(db, workspaceId) });
      byWorkspace.set(workspaceId, clients);
    }
    return clients;
  };
}

/** For workers: a user's clients, with that user's response cache unless the run asks for none. */
export type WorkerClients = (
  workspaceId: string,
  options: { noCache: boolean },
) => Partial<LlmClients>;

export function workerClients(db: Db, llm: LlmConfig | undefined): WorkerClients {
  const cached = userClients(db, llm);
  const uncached = llm ? configuredClients(llm) : {};
  return (workspaceId, options) => (options.noCache ? uncached : cached(workspaceId));
}
