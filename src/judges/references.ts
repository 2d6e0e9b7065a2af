// A question may carry several acceptable reference answers (`ground_truths`) besides, or instead
// of, the one `ground_truth`. Every reference judge scores against the best-matching one, as
// SQuAD's script takes its maximum over references.

import { z } from "zod";

/** The reference fields of a judge input: either or both; blank ones count as none. */
export const ReferenceFieldsSchema = z.object({
  /** The reference answer, when the question set has one. */
  ground_truth: z.string().optional(),
  /** Several acceptable reference answers; the best-matching one is judged against. */
  ground_truths: z.array(z.string()).optional(),
});
export type ReferenceFields = z.input<typeof ReferenceFieldsSchema>;

/**
 * The references of an input, in order (`ground_truth` first), trimmed of nothing but without
 * blank ones (an empty cell in a question set is no reference) and without repeats.
 */
export function referencesOf(fields: {
  ground_truth?: string | undefined;
  ground_truths?: readonly string[] | undefined;
}): string[] {
  const all = [
    ...(fields.ground_truth === undefined ? [] : [fields.ground_truth]),
    ...(fields.ground_truths ?? []),
  ];
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const reference of all) {
    const key = reference.trim();
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    kept.push(reference);
  }
  return kept;
}
