// Several acceptable references per question (issue 14 §1): `ground_truth` stays the first one, so
// every reader of a single reference keeps working; `ground_truths` holds the whole list when it
// has more than one. SQuAD's evaluation script scores against the best of them.

export interface ReferenceFields {
  ground_truth?: string | null | undefined;
  ground_truths?: readonly string[] | null | undefined;
}

/** Every reference of a question, trimmed, non-empty, each once, `ground_truth` first. */
export function referencesOf(question: ReferenceFields): string[] {
  const all = [question.ground_truth ?? "", ...(question.ground_truths ?? [])]
    .map((reference) => reference.trim())
    .filter((reference) => reference !== "");
  return [...new Set(all)];
}

/** The stored form: `ground_truth` the first reference ("" for none), `ground_truths` the list when longer than one. */
export function storedReferences(question: ReferenceFields): {
  ground_truth: string;
  ground_truths: string[] | null;
} {
  const references = referencesOf(question);
  return {
    ground_truth: references[0] ?? "",
    ground_truths: references.length > 1 ? references : null,
  };
}
