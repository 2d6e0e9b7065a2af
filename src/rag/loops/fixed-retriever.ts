// An in-memory Retriever over a fixed hit list: for demos, tests and benchmarks of the loops
// without a database. It honours the request's sources and top_k and answers per query when given
// a function, so a test can make the first query grade low and a rewrite grade well.

import type { RetrievalSource, RetrievedHit, RetrieveRequest, Retriever } from "../types.js";

export type FixedHits =
  readonly RetrievedHit[] | ((request: RetrieveRequest) => readonly RetrievedHit[]);

/** A Retriever returning `hits` (or hits(request)) filtered to the requested sources and top_k. */
export function fixedRetriever(hits: FixedHits): Retriever {
  return async (request) => {
    request.signal?.throwIfAborted();
    const all = typeof hits === "function" ? hits(request) : hits;
    const wanted = new Set<RetrievalSource>(request.sources);
    const fused: RetrievedHit[] = [];
    const per_source: Partial<Record<RetrievalSource, RetrievedHit[]>> = {};
    for (const hit of all) {
      const sources = hit.sources.filter((s) => wanted.has(s));
      if (sources.length === 0) continue;
      if (fused.length < request.top_k) fused.push(hit);
      for (const source of sources) {
        const list = per_source[source] ?? [];
        list.push(hit);
        per_source[source] = list;
      }
    }
    return { fused_results: fused, per_source };
  };
}

/** A hit with the contract's fields filled in; `source` defaults to the first of `sources`. */
export function makeHit(
  fields: Pick<RetrievedHit, "node_id" | "content"> & Partial<RetrievedHit>,
): RetrievedHit {
  const sources = fields.sources ?? [fields.source ?? "lexical"];
  return {
    score: 0.5,
    document_id: `doc-${fields.node_id}`,
    position: 0,
    scores: {},
    metadata: {},
    ...fields,
    source: fields.source ?? sources[0] ?? "lexical",
    sources,
  };
}
