import { configuredClients } from "./clients.js";
import type { LlmClients, LlmConfig } from "../llm/index.js";
import { type Db, llmResponseCache } from "../store/index.js";

export type UserClients = (userId: string) => Partial<LlmClients>;

/**
 * LLM clients per user, made on first use: the response cache is per user, and each role keeps
 * its own client (the judge never shares the generator's, seed 000).
 */
export function userClients(db: Db, llm: LlmConfig | undefined): UserClients {
  const byUser = new Map<string, Partial<LlmClients>>();
  return (userId) => {
    if (!llm) return {};
    let clients = byUser.get(userId);
    if (!clients) {
      clients = configuredClients(llm, { cache: llmResponseCache(db, userId) });
      byUser.set(userId, clients);
    }
    return clients;
  };
}

/** For workers: a user's clients, with that user's response cache unless the run asks for none. */
export type WorkerClients = (userId: string, options: { noCache: boolean }) => Partial<LlmClients>;

export function workerClients(db: Db, llm: LlmConfig | undefined): WorkerClients {
  const cached = userClients(db, llm);
  const uncached = llm ? configuredClients(llm) : {};
  return (userId, options) => (options.noCache ? uncached : cached(userId));
}
