// The parts of a stored answer's input the answer page shows: its hits and the ids it cites.
// The input is kept whole for replay and typed loosely by the API, so it is read defensively.

export interface Hit {
  node_id: string;
  content: string;
  score?: number;
  source?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function hitsOf(input: Record<string, unknown>): Hit[] {
  const hits = Array.isArray(input.retrieval_hits) ? input.retrieval_hits : [];
  return hits.flatMap((hit): Hit[] => {
    if (!isRecord(hit) || typeof hit.node_id !== "string" || typeof hit.content !== "string") {
      return [];
    }
    return [
      {
        node_id: hit.node_id,
        content: hit.content,
        ...(typeof hit.score === "number" ? { score: hit.score } : {}),
        ...(typeof hit.source === "string" ? { source: hit.source } : {}),
      },
    ];
  });
}

/** The node ids the answer's citations name, in order, once each. */
export function citedIds(input: Record<string, unknown>): string[] {
  const output = isRecord(input.generation_output) ? input.generation_output : {};
  const citations = Array.isArray(output.citations) ? output.citations : [];
  const ids = citations.flatMap((c) =>
    isRecord(c) && typeof c.node_id === "string" ? [c.node_id] : [],
  );
  return [...new Set(ids)];
}

/** A hit's anchor on the page: by position, since node ids may hold any character. */
export const hitAnchor = (index: number) => `hit-${index + 1}`;
