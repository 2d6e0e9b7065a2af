// The user's retriever as the loops' Retriever: a LangChain retriever (anything with
// `invoke(query)` answering Documents), or a function given the loops' request. Documents become
// hits the quality checker can grade: seed 001 reads a document's relevance from
// `metadata.relevance_score` (0 when absent) and its store from `source`.

import type { DocumentInterface } from "@langchain/core/documents";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  RETRIEVAL_SOURCES,
  type RetrievalSource,
  type RetrievedHit,
  type RetrieveRequest,
  type RetrieveResult,
  type Retriever,
} from "../../rag/loops/index.js";

/** A LangChain retriever (BaseRetriever, a vector store's `asRetriever()`, ...). */
export interface RetrieverLike {
  invoke(query: string, options?: Partial<RunnableConfig>): Promise<DocumentInterface[]>;
}

/** A passage as a function may return it: a LangChain Document, or `{ id, content, score }`. */
export type PassageLike =
  | DocumentInterface
  | {
      id?: string;
      node_id?: string;
      content: string;
      score?: number;
      title?: string;
      source?: string;
      metadata?: Record<string, unknown>;
    };

/**
 * A retriever function: gets the loops' request (`query`, `signal`, `top_k`, `sources`,
 * `collection_id`) and returns passages, or a whole RetrieveResult (ragjudge's own retriever, as
 * `createRetriever` builds it, whose `termStats` the offline rewriter then uses).
 */
export type RetrieveFunction = (
  request: RetrieveRequest,
) => Promise<readonly PassageLike[] | RetrieveResult> | readonly PassageLike[] | RetrieveResult;

export type RetrieveInput = RetrieverLike | RetrieveFunction;

export interface HitOptions {
  /** The retrieval source a passage counts as when its metadata names none; default "vector". */
  source?: RetrievalSource;
}

function isSource(value: unknown): value is RetrievalSource {
  return typeof value === "string" && (RETRIEVAL_SOURCES as readonly string[]).includes(value);
}

function unitScore(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

function isHit(value: object): value is RetrievedHit {
  return "node_id" in value && "content" in value && "sources" in value && "scores" in value;
}

/** One passage as a hit; `position` is its 0-based rank. */
export function hitFromPassage(
  passage: PassageLike | RetrievedHit,
  position: number,
  options: HitOptions = {},
): RetrievedHit {
  if (isHit(passage)) return passage;
  const metadata: Record<string, unknown> = { ...passage.metadata };
  const document = "pageContent" in passage;
  const content = document ? passage.pageContent : passage.content;
  const named = (key: string) => {
    const value = metadata[key];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const node_id =
    passage.id ??
    ("node_id" in passage ? passage.node_id : undefined) ??
    named("node_id") ??
    named("id") ??
    String(position + 1);
  // A Document's metadata.source is usually a file path; only ragjudge's source names count.
  const ownSource = !document && "source" in passage ? passage.source : undefined;
  const source = [metadata.retrieval_source, ownSource, metadata.source].find(isSource);
  const resolved = source ?? options.source ?? "vector";
  const title = !document && "title" in passage ? passage.title : named("title");
  const score = unitScore(
    !document && "score" in passage && passage.score !== undefined
      ? passage.score
      : (metadata.relevance_score ?? metadata.score),
  );
  return {
    node_id,
    content,
    score,
    source: resolved,
    sources: [resolved],
    scores: { relevance: score },
    document_id: named("document_id") ?? named("source") ?? node_id,
    ...(title !== undefined ? { title } : {}),
    position,
    metadata,
  };
}

/** Passages (Documents, `{content}` objects or hits) as hits, ranked as given. */
export function hitsFromPassages(
  passages: readonly (PassageLike | RetrievedHit)[],
  options: HitOptions = {},
): RetrievedHit[] {
  return passages.map((passage, i) => hitFromPassage(passage, i, options));
}

function isResult(value: unknown): value is RetrieveResult {
  return typeof value === "object" && value !== null && "fused_results" in value;
}

function isRetrieverLike(value: RetrieveInput): value is RetrieverLike {
  return typeof (value as Partial<RetrieverLike>).invoke === "function";
}

/** The passages of one retrieval, by the source each counts as. */
function resultOf(hits: RetrievedHit[], topK: number): RetrieveResult {
  const fused = hits.slice(0, topK);
  const per_source: RetrieveResult["per_source"] = {};
  for (const hit of fused) (per_source[hit.source] ??= []).push(hit);
  return { fused_results: fused, per_source };
}

/**
 * The user's retriever as a Retriever. `runConfig` is the node's config, passed on to a LangChain
 * retriever so its run shows under the node in traces.
 */
export function toRetriever(
  input: RetrieveInput,
  options: HitOptions = {},
  runConfig: RunnableConfig = {},
): Retriever {
  if (isRetrieverLike(input)) {
    return async (request) => {
      const documents = await input.invoke(request.query, {
        ...runConfig,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      return resultOf(hitsFromPassages(documents, options), request.top_k);
    };
  }
  const retriever: Retriever = async (request) => {
    const answer = await input(request);
    if (isResult(answer)) return answer;
    return resultOf(hitsFromPassages(answer, options), request.top_k);
  };
  // ragjudge's own retriever knows its collection's term statistics; keep them for the rewriter.
  const own = input as Partial<Retriever>;
  if (typeof own.termStats === "function") retriever.termStats = own.termStats.bind(input);
  return retriever;
}
