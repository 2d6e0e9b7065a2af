// The collection a command's built-in bot answers from: ingested first from --docs when given,
// then resolved by name or id. Shared by `ragjudge eval` and `ragjudge arena`.

import type { RagjudgeConfig } from "../config/index.js";
import type { LlmClients } from "../llm/index.js";
import { createBuiltinBot } from "../rag/index.js";
import type { StoreSession } from "./store-session.js";

export interface CollectionPlan {
  /** The collection's name or id. */
  name: string;
  /** Paths to ingest into it first, creating it. */
  docs: string[];
  /**
   * The built-in bot needs the collection: a missing one throws CollectionNotFoundError (exit 2).
   * Otherwise a missing collection resolves to null (an HTTP bot has its own).
   */
  required: boolean;
}

/** Ingests the plan's docs, then resolves the collection; returns its id (null without one). */
export async function prepareCollection(
  session: StoreSession,
  config: RagjudgeConfig,
  plan: CollectionPlan | undefined,
  /** The clients ingesting uses (embeddings), made only when there is a collection. */
  llm?: () => Partial<LlmClients>,
): Promise<string | null> {
  if (!plan) return null;
  const bot = createBuiltinBot({
    db: session.store.db,
    workspaceId: session.actor.workspaceId,
    ...(llm ? { llm: llm() } : {}),
    retrieval: config.rag.retrieval,
  });
  if (plan.docs.length > 0) {
    const result = await bot.ingestPaths(plan.docs, { name: plan.name });
    process.stderr.write(
      `Ingested into "${plan.name}": ${result.documents.added} added, ${result.documents.unchanged} unchanged, ${result.documents.replaced} replaced (${result.chunks.added} chunks)\n`,
    );
    for (const problem of result.problems) {
      process.stderr.write(
        `${problem.source}${problem.line ? `:${problem.line}` : ""}: ${problem.message}\n`,
      );
    }
  }
  try {
    return await bot.resolveCollection(plan.name);
  } catch (error) {
    if (plan.required) throw error;
    return null;
  }
}
