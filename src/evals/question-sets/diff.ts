import { referencesOf } from "../questions/index.js";

// Two versions of a question set, question by question (issue 28 §3). A question keeps its id
// across edits, so versions match by id: an id only in the newer version was added, one only in
// the older removed, one in both with other content changed.

/** The content of a question as a version holds it. */
export interface VersionedQuestion {
  id: string;
  question_type: string;
  question_text: string;
  ground_truth: string;
  ground_truths?: readonly string[] | null;
  reference_context?: string | null;
  relevant_ids?: readonly string[] | null;
  reference_contexts?: readonly string[] | null;
}

export const DIFF_FIELDS = [
  "question_text",
  "ground_truths",
  "question_type",
  "reference_context",
  "relevant_ids",
  "reference_contexts",
] as const;
export type DiffField = (typeof DIFF_FIELDS)[number];

export interface ChangedQuestion<Q> {
  before: Q;
  after: Q;
  /** What differs; `ground_truths` stands for the references (ground_truth and its list). */
  fields: DiffField[];
}

export interface VersionDiff<Q> {
  added: Q[];
  removed: Q[];
  changed: ChangedQuestion<Q>[];
  unchanged: number;
}

const listKey = (list: readonly string[] | null | undefined) => JSON.stringify(list ?? []);

/** The fields in which two copies of one question differ; empty when they are the same. */
export function changedFields(before: VersionedQuestion, after: VersionedQuestion): DiffField[] {
  const fields: DiffField[] = [];
  if (before.question_text !== after.question_text) fields.push("question_text");
  if (listKey(referencesOf(before)) !== listKey(referencesOf(after))) fields.push("ground_truths");
  if (before.question_type !== after.question_type) fields.push("question_type");
  if ((before.reference_context ?? "") !== (after.reference_context ?? "")) {
    fields.push("reference_context");
  }
  if (listKey(before.relevant_ids) !== listKey(after.relevant_ids)) fields.push("relevant_ids");
  if (listKey(before.reference_contexts) !== listKey(after.reference_contexts)) {
    fields.push("reference_contexts");
  }
  return fields;
}

/** What changed from `older` to `newer`, each list in the order of the version it comes from. */
export function diffVersions<Q extends VersionedQuestion>(
  older: readonly Q[],
  newer: readonly Q[],
): VersionDiff<Q> {
  const olderById = new Map(older.map((q) => [q.id, q]));
  const newerIds = new Set(newer.map((q) => q.id));
  const diff: VersionDiff<Q> = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const after of newer) {
    const before = olderById.get(after.id);
    if (!before) {
      diff.added.push(after);
      continue;
    }
    const fields = changedFields(before, after);
    if (fields.length === 0) diff.unchanged += 1;
    else diff.changed.push({ before, after, fields });
  }
  diff.removed = older.filter((q) => !newerIds.has(q.id));
  return diff;
}
