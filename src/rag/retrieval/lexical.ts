import {
  chunkTokenPages,
  chunkTokensOfDocuments,
  type Db,
  documentIds,
} from "../../store/index.js";
import { Bm25Builder, type Bm25Index, type Bm25Params } from "./bm25.js";
import type { TermStats } from "./rerank.js";

/** A collection's BM25 index over the tokens stored with its chunks. */
export interface LexicalIndex extends TermStats {
  bm25: Bm25Index;
  /** Chunk ids, by document number. */
  ids: readonly string[];
  /** Each chunk's document id, by document number. */
  documents: readonly string[];
  has(nodeId: string): boolean;
  search(terms: readonly string[], k: number): Array<{ node_id: string; bm25: number }>;
}

interface TokenRow {
  id: string;
  document_id: string;
  /** Space-joined retrieval tokens. */
  tokens: string;
}

export function lexicalIndexFromRows(rows: Iterable<TokenRow>, params?: Bm25Params): LexicalIndex {
  const builder = new Bm25Builder();
  const ids: string[] = [];
  const documents: string[] = [];
  for (const row of rows) {
    builder.addJoined(row.tokens);
    ids.push(row.id);
    documents.push(row.document_id);
  }
  return lexicalIndex(builder.build(params), ids, documents);
}

/** Reads the collection's chunk tokens page by page and builds its index. */
export async function loadLexicalIndex(
  db: Db,
  workspaceId: string,
  collectionId: string,
  params?: Bm25Params,
): Promise<LexicalIndex> {
  const builder = new Bm25Builder();
  const ids: string[] = [];
  const documents: string[] = [];
  for await (const page of chunkTokenPages(db, workspaceId, collectionId)) {
    for (const row of page) {
      builder.addJoined(row.tokens);
      ids.push(row.id);
      documents.push(row.document_id);
    }
  }
  return lexicalIndex(builder.build(params), ids, documents);
}

/** Documents whose chunks' tokens are fetched per query while refreshing. */
const REFRESH_FETCH = 1_000;

/**
 * The index of the collection as it is now, from an index of an earlier version: document ids
 * are compared (chunks change only with their document), only new documents' chunk tokens are
 * read, and the postings are merged in memory (Bm25Index.extend). After an ingest of a few documents into 100,000
 * chunks this reads the small documents table instead of every chunk. When most documents
 * changed a full load is cheaper, and is done instead.
 */
export async function refreshLexicalIndex(
  db: Db,
  workspaceId: string,
  collectionId: string,
  previous: LexicalIndex | undefined,
  params?: Bm25Params,
): Promise<LexicalIndex> {
  if (!previous || previous.ids.length === 0) {
    return loadLexicalIndex(db, workspaceId, collectionId, params);
  }
  const current = new Set(await documentIds(db, workspaceId, collectionId));
  const known = new Set(previous.documents);
  let keptDocuments = 0;
  for (const id of known) if (current.has(id)) keptDocuments++;
  if (keptDocuments < known.size / 2)
    return loadLexicalIndex(db, workspaceId, collectionId, params);
  const added = [...current].filter((id) => !known.has(id));
  if (keptDocuments === known.size && added.length === 0) return previous;

  const keep = (doc: number) => current.has(previous.documents[doc] as string);
  const additions = previous.bm25.additions();
  const ids: string[] = [];
  const documents: string[] = [];
  previous.ids.forEach((id, doc) => {
    if (!keep(doc)) return;
    ids.push(id);
    documents.push(previous.documents[doc] as string);
  });
  for (let i = 0; i < added.length; i += REFRESH_FETCH) {
    const batch = added.slice(i, i + REFRESH_FETCH);
    for (const row of await chunkTokensOfDocuments(db, workspaceId, collectionId, batch)) {
      additions.addJoined(row.tokens);
      ids.push(row.id);
      documents.push(row.document_id);
    }
  }
  return lexicalIndex(previous.bm25.extend(keep, additions), ids, documents);
}

function lexicalIndex(bm25: Bm25Index, ids: string[], documents: string[]): LexicalIndex {
  const numbers = new Map<string, number>();
  ids.forEach((id, doc) => {
    numbers.set(id, doc);
  });
  return {
    bm25,
    ids,
    documents,
    has: (nodeId) => numbers.has(nodeId),
    idf: (term) => bm25.idf(term),
    contains(nodeId, term) {
      const doc = numbers.get(nodeId);
      return doc !== undefined && bm25.contains(doc, term);
    },
    search: (terms, k) =>
      bm25.search(terms, k).map(({ doc, score }) => ({ node_id: ids[doc] as string, bm25: score })),
  };
}
