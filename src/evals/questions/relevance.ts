// A question's relevant ids and reference texts (issue 26 §4), stored as lists or null: each item
// trimmed and kept once, an empty list stored as none.

export interface RelevanceFields {
  relevant_ids?: readonly string[] | null | undefined;
  reference_contexts?: readonly string[] | null | undefined;
}

/** A list as stored: items trimmed, blank ones and repeats dropped, null when none is left. */
export function storedList(values: readonly string[] | null | undefined): string[] | null {
  const kept = [...new Set((values ?? []).map((value) => value.trim()).filter((v) => v !== ""))];
  return kept.length > 0 ? kept : null;
}

/** The stored form of both fields. */
export function storedRelevance(question: RelevanceFields): {
  relevant_ids: string[] | null;
  reference_contexts: string[] | null;
} {
  return {
    relevant_ids: storedList(question.relevant_ids),
    reference_contexts: storedList(question.reference_contexts),
  };
}
