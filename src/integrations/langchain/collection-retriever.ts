// A ragjudge collection as a LangChain retriever: the built-in hybrid retrieval (lexical, vector,
// memory; RRF; rerank), the same retriever `ragjudge ask` runs, serving a LangChain app.
//
// rag/ and store/ are loaded with import() at the first search, so `import "ragjudge/langchain"`
// loads no database code (PGlite, drizzle, pg) for an app that only records or judges.

import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import { Document } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import type { LlmClient } from "../../llm/index.js";

type Rag = typeof import("../../rag/index.js");
type StoreModule = typeof import("../../store/index.js");
type RetrievalSource = "lexical" | "vector" | "memory";

export interface RagjudgeRetrieverOptions extends BaseRetrieverInput {
  /** The store the collection lives in: `openStore()` of the core entry (its `db` is used). */
  store: Pick<Awaited<ReturnType<StoreModule["openStore"]>>, "db">;
  /** The collection's owner; default the local user (the one the CLI ingests as). */
  workspaceId?: string;
  /** How many chunks to return (default 5). */
  topK?: number;
  /** The sources to search; default: what question_router picks for the query. */
  sources?: RetrievalSource[];
  /** The embedder role's client, for the vector source; without it the vector source is off. */
  embedder?: LlmClient;
  /** The `retrieval` config section (BM25, RRF, rerank); defaults otherwise. */
  retrieval?: Record<string, unknown>;
}

const ALL_SOURCES: RetrievalSource[] = ["lexical", "vector", "memory"];

class RagjudgeRetriever extends BaseRetriever {
  lc_namespace = ["ragjudge", "retrievers"];
  private ready: Promise<(query: string) => Promise<Document[]>> | undefined;

  constructor(
    private readonly collection: string,
    private readonly options: RagjudgeRetrieverOptions,
  ) {
    super(options);
  }

  private async open(): Promise<(query: string) => Promise<Document[]>> {
    const [rag, store]: [Rag, StoreModule] = await Promise.all([
      import("../../rag/index.js"),
      import("../../store/index.js"),
    ]);
    const db = this.options.store.db;
    const workspaceId =
      this.options.workspaceId ?? (await store.findOrCreateUser(db, store.LOCAL_USER_NAME)).id;
    const embedder = this.options.embedder;
    const bot = rag.createBuiltinBot({
      db,
      workspaceId,
      ...(embedder ? { llm: { embedder } } : {}),
    });
    const collectionId = await bot.resolveCollection(this.collection);
    const retrieve = rag.createRetriever({
      db,
      workspaceId,
      ...(embedder ? { embedder } : {}),
      ...(this.options.retrieval ? { config: this.options.retrieval } : {}),
    });
    const route = retrieve.routerFor(collectionId);
    const topK = this.options.topK ?? 5;
    return async (query) => {
      const sources = this.options.sources ?? (await route(query, ALL_SOURCES));
      const { fused_results } = await retrieve({
        collection_id: collectionId,
        query,
        sources,
        top_k: topK,
      });
      return fused_results.map(
        (hit) =>
          new Document({
            id: hit.node_id,
            pageContent: hit.content,
            metadata: {
              ...hit.metadata,
              node_id: hit.node_id,
              document_id: hit.document_id,
              ...(hit.title !== undefined ? { title: hit.title } : {}),
              relevance_score: hit.score,
              retrieval_source: hit.source,
              scores: hit.scores,
            },
          }),
      );
    };
  }

  override async _getRelevantDocuments(
    query: string,
    _runManager?: CallbackManagerForRetrieverRun,
  ): Promise<Document[]> {
    // A failed open (an unknown collection) is tried again on the next search.
    this.ready ??= this.open().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return (await this.ready)(query);
  }
}

/**
 * A LangChain retriever over a ragjudge collection (its id or name). Documents carry the chunk's
 * id (`id`, `metadata.node_id`), `metadata.relevance_score` in [0, 1] and `metadata.retrieval_source`,
 * as ragjudge/langgraph's grading reads them.
 */
export function ragjudgeRetriever(
  collection: string,
  options: RagjudgeRetrieverOptions,
): BaseRetriever {
  return new RagjudgeRetriever(collection, options);
}
