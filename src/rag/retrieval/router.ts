import type { RetrievalSource } from "../types.js";

/** What a collection can be searched with beyond `lexical`, which is always there. */
export interface SourceAvailability {
  /** An embedder is configured. */
  vector: boolean;
  /** The collection has observational data. */
  memory: boolean;
}

/**
 * Seed 001's question_router: chooses the sources for a query. Deterministic: lexical always,
 * vector when an embedder is configured, memory when the collection has observations. `available`
 * is either that knowledge or a list of the sources that may be used (the loops' form). The query
 * is taken for the seed's signature; no rule reads it yet.
 */
export function questionRouter(
  _query: string,
  available: SourceAvailability | readonly RetrievalSource[],
): RetrievalSource[] {
  const has = (source: "vector" | "memory") =>
    Array.isArray(available)
      ? available.includes(source)
      : (available as SourceAvailability)[source];
  const sources: RetrievalSource[] = ["lexical"];
  if (has("vector")) sources.push("vector");
  if (has("memory")) sources.push("memory");
  return sources;
}

/** The sources a SourceAvailability allows, lexical first. */
export function availableSources(available: SourceAvailability): RetrievalSource[] {
  return questionRouter("", available);
}
