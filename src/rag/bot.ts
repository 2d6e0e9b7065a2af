import { LRUCache } from "lru-cache";
import type { GateConfig } from "../gate/index.js";
import type { JudgesConfig } from "../judges/index.js";
import type { LlmClients } from "../llm/index.js";
import {
  CollectionNotFoundError,
  type Db,
  findCollectionByName,
  getCollection,
  observationWriter,
} from "../store/index.js";
import type { ParsedDocument } from "./ingest/document.js";
import type { PreparedDocument } from "./ingest/prepare.js";
import {
  type IngestOptions,
  type IngestResult,
  ingestDocuments,
  ingestPaths,
} from "./ingest/index.js";
import { type AskResult, ask, type LoopsConfig, perUserObservationPath } from "./loops/index.js";
import { createRetriever, type RetrievalConfig } from "./retrieval/index.js";
import type { RetrievalSource } from "./types.js";

export interface BuiltinBotOptions {
  db: Db;
  workspaceId: string;
  /** Clients of the configured roles; a missing role works offline. */
  llm?: Partial<LlmClients>;
  loops?: LoopsConfig;
  retrieval?: RetrievalConfig;
  gate?: GateConfig;
  judges?: JudgesConfig;
  /**
   * Record passing answers as observations in the database (the `memory` source); default true.
   * Evaluation runs turn it off, so one question's answer cannot change the next one's retrieval.
   */
  observe?: boolean;
  /**
   * Reuse a resolved collection and its version for this long (ms, default 0). Evaluation runs
   * and the server set it (LONG_LIVED_BOT_CACHE_MS): each read is a query per question, and under
   * load each passing answer would otherwise make every next ask reload the memory index. What
   * this bot ingests is seen at once; changes made by other processes within the period.
   */
  collectionCacheMs?: number;
}

/** collectionCacheMs of a bot that outlives one question: the server's, an evaluation worker's. */
export const LONG_LIVED_BOT_CACHE_MS = 1_000;

export interface AskOptions {
  question: string;
  /** A collection id, or its name. */
  collection: string;
  sources?: RetrievalSource[];
  conversation_id?: string;
  message_id?: string;
  signal?: AbortSignal;
}

/**
 * The built-in agentic RAG bot for one user: ingest into collections, then ask. It wires the
 * database retriever, question_router and observation store into the loops of rag/loops.
 */
export function createBuiltinBot(options: BuiltinBotOptions) {
  const { db, workspaceId } = options;
  const llm = options.llm ?? {};
  const retriever = createRetriever({
    db,
    workspaceId,
    ...(llm.embedder ? { embedder: llm.embedder } : {}),
    ...(options.retrieval ? { config: options.retrieval } : {}),
    ...(options.collectionCacheMs ? { stateTtlMs: options.collectionCacheMs } : {}),
  });
  const appendObservations =
    options.observe === false ? undefined : observationWriter(db, workspaceId);
  const loops = ownObservationFile(options.loops, workspaceId);

  const cacheMs = options.collectionCacheMs ?? 0;
  // A collection's id by the id or name a request gave, reused for collectionCacheMs.
  const resolved =
    cacheMs > 0
      ? new LRUCache<string, string>({
          max: 256,
          ttl: cacheMs,
          fetchMethod: (ref) => lookupCollection(ref),
        })
      : undefined;
  /** Another user's collection, or a deleted one, is not found. */
  async function resolveCollection(ref: string): Promise<string> {
    return (await resolved?.fetch(ref)) ?? lookupCollection(ref);
  }
  async function lookupCollection(ref: string): Promise<string> {
    const found =
      (await getCollection(db, workspaceId, ref)) ??
      (await findCollectionByName(db, workspaceId, ref));
    if (!found) throw new CollectionNotFoundError(ref);
    return found.id;
  }

  const common = (collection: IngestOptions["collection"]): IngestOptions => ({
    db,
    workspaceId,
    collection,
    ...(llm.embedder ? { embedder: llm.embedder } : {}),
  });

  /** The next ask reads the collection's version again, even after a failed (partial) ingest. */
  async function changing(ingest: Promise<IngestResult>): Promise<IngestResult> {
    try {
      const result = await ingest;
      retriever.forget(result.collection_id);
      return result;
    } catch (error) {
      retriever.forget();
      throw error;
    }
  }

  return {
    resolveCollection,
    ingestPaths(
      paths: readonly string[],
      collection: IngestOptions["collection"],
      extra: Pick<IngestOptions, "onProgress" | "signal"> = {},
    ): Promise<IngestResult> {
      return changing(ingestPaths({ ...common(collection), ...extra, paths }));
    },
    ingestDocuments(
      documents: Array<ParsedDocument | PreparedDocument>,
      collection: IngestOptions["collection"],
    ): Promise<IngestResult> {
      return changing(ingestDocuments({ ...common(collection), documents }));
    },
    async ask(input: AskOptions): Promise<AskResult> {
      const collection_id = await resolveCollection(input.collection);
      return ask(
        {
          question: input.question,
          collection_id,
          ...(input.sources ? { sources: input.sources } : {}),
          ...(input.conversation_id ? { conversation_id: input.conversation_id } : {}),
          ...(input.message_id ? { message_id: input.message_id } : {}),
          ...(input.signal ? { signal: input.signal } : {}),
        },
        {
          retrieve: retriever,
          questionRouter: retriever.routerFor(collection_id),
          ...(appendObservations ? { appendObservations } : {}),
          llm,
          ...(loops ? { config: loops } : {}),
          ...(options.gate ? { gate: options.gate } : {}),
          ...(options.judges ? { judges: options.judges } : {}),
        },
      );
    },
  };
}

export type BuiltinBot = ReturnType<typeof createBuiltinBot>;

/** The loops with the observations file made the user's own when `per_user` says so. */
function ownObservationFile(loops: LoopsConfig | undefined, workspaceId: string) {
  const observations = loops?.observations;
  if (!loops || !observations?.per_user || observations.path === null) return loops;
  return {
    ...loops,
    observations: { ...observations, path: perUserObservationPath(observations.path, workspaceId) },
  };
}
