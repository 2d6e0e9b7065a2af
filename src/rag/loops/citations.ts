// How answers refer to chunks. A chunk is cited by its node_id in square brackets ([n1]); a node_id
// the gate could not read as a marker (markers need a digit, e.g. "intro") is cited by its 1-based
// position among the hits instead ([3]), which the gate resolves the same way.

import { parseCitationMarkers, type RetrievalHit, resolveMarkers } from "../../gate/index.js";
import { truncateChars } from "../../judges/index.js";
import { findCitationMarkers } from "../../text/index.js";
import type { RetrievedHit } from "../types.js";

/** The reference an answer writes for hits[index]. */
export function citationRef(hit: Pick<RetrievedHit, "node_id">, index: number): string {
  const spans = findCitationMarkers(`[${hit.node_id}]`);
  const only = spans.length === 1 ? spans[0]?.refs : undefined;
  return only?.length === 1 && only[0] === hit.node_id ? hit.node_id : String(index + 1);
}

/** The chunks as a prompt shows them: `[n1] Title (document d1)` then the text, cut to maxChars. */
export function formatChunks(
  hits: readonly RetrievedHit[],
  maxChars: number,
  empty: string,
): string {
  if (hits.length === 0) return empty;
  const blocks: string[] = [];
  hits.forEach((hit, i) => {
    const label = hit.title
      ? `${hit.title} (document ${hit.document_id})`
      : `document ${hit.document_id}`;
    blocks.push(`[${citationRef(hit, i)}] ${label}\n${truncateChars(hit.content, maxChars)}`);
  });
  return blocks.join("\n\n");
}

/** The distinct node_ids an answer's markers designate, in order of first citation. */
export function citedNodeIds(answer: string, hits: readonly RetrievedHit[]): string[] {
  const markers = parseCitationMarkers(answer);
  if (markers.length === 0) return [];
  // resolveMarkers reads node_id only; RetrievedHit has it, without the gate's index signature.
  const { hitsByRef } = resolveMarkers(markers, hits as unknown as readonly RetrievalHit[]);
  const ids: string[] = [];
  for (const indexes of hitsByRef.values()) {
    for (const index of indexes) {
      const id = hits[index]?.node_id;
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}
