import { LRUCache } from "lru-cache";
import { configuredClients } from "./clients.js";
import type { LlmClients, LlmConfig } from "../llm/index.js";
import { type Db, llmResponseCache } from "../store/index.js";

export type UserClients = (workspaceId: string) => Partial<LlmClients>;

/**
 * Workspaces whose clients are kept. A client holds no socket or timer of its own (the keep-alive
 * agent and the provider limiters are process-wide), so an evicted one needs no closing: it is
 * garbage once the calls that hold it end, and the workspace's next request makes a new one.
 */
const KEPT_WORKSPACES = 256;

/**
 * LLM clients per workspace, made on first use and kept for the most recently used ones: the
 * response cache is per workspace, and each role keeps its own client (the judge never shares the
 * generator's, seed 000).
 */
export function userClients(
  db: Db,
  llm: LlmConfig | undefined,
  options: { max?: number } = {},
): UserClients {
  const byWorkspace = new LRUCache<string, Partial<LlmClients>>({
    max: options.max ?? KEPT_WORKSPACES,
  });
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
