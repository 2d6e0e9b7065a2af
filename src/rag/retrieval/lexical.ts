import { chunkTokenPages, type Db } from "../../store/index.js";
import { Bm25Builder, type Bm25Index, type Bm25Params } from "./bm25.js";
import type { TermStats } from "./rerank.js";

/** A collection's BM25 index over the tokens stored with its chunks. */
export interface LexicalIndex extends TermStats {
  bm25: Bm25Index;
  ids: readonly string[];
  has(nodeId: string): boolean;
  search(terms: readonly string[], k: number): Array<{ node_id: string; bm25: number }>;
}

export function lexicalIndexFromRows(
  rows: Iterable<{ id: string; tokens: string }>,
  params?: Bm25Params,
): LexicalIndex {
  const builder = new Bm25Builder();
  const ids: string[] = [];
  for (const row of rows) addRow(builder, ids, row);
  return lexicalIndex(builder.build(params), ids);
}

/** Reads the collection's chunk tokens page by page: no per-query table scan, one per version. */
export async function loadLexicalIndex(
  db: Db,
  userId: string,
  collectionId: string,
  params?: Bm25Params,
): Promise<LexicalIndex> {
  const builder = new Bm25Builder();
  const ids: string[] = [];
  for await (const page of chunkTokenPages(db, userId, collectionId)) {
    for (const row of page) addRow(builder, ids, row);
  }
  return lexicalIndex(builder.build(params), ids);
}

function addRow(builder: Bm25Builder, ids: string[], row: { id: string; tokens: string }): void {
  builder.addJoined(row.tokens);
  ids.push(row.id);
}

function lexicalIndex(bm25: Bm25Index, ids: string[]): LexicalIndex {
  const numbers = new Map<string, number>();
  ids.forEach((id, doc) => {
    numbers.set(id, doc);
  });
  return {
    bm25,
    ids,
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
