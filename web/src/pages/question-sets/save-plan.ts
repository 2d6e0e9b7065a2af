import type { Question } from "../../api/types";
import type { QuestionType } from "../../../../src/evals/questions/rules";
import type { TableRow } from "./table-state";

/** The calls that turn a saved set's questions into the table's rows. */
export interface SavePlan {
  added: (Omit<TableRow, "key" | "id" | "relevant_ids" | "reference_contexts"> & {
    relevant_ids?: string[];
    reference_contexts?: string[];
  })[];
  updated: {
    id: string;
    question_type: QuestionType;
    question_text: string;
    ground_truth: string;
  }[];
  removed: string[];
}

/** What the plan reads of a saved question. */
export type SavedQuestion = Pick<
  Question,
  "id" | "question_type" | "question_text" | "ground_truth"
>;

export function savePlan(saved: readonly SavedQuestion[], rows: readonly TableRow[]): SavePlan {
  const byId = new Map(saved.map((q) => [q.id, q]));
  const kept = new Set<string>();
  const plan: SavePlan = { added: [], updated: [], removed: [] };
  for (const row of rows) {
    const before = row.id ? byId.get(row.id) : undefined;
    const fields = {
      question_type: row.question_type,
      question_text: row.question_text.trim(),
      ground_truth: row.ground_truth.trim(),
    };
    if (!before || !row.id) {
      plan.added.push({
        ...fields,
        ...(row.reference_context ? { reference_context: row.reference_context } : {}),
        ...(row.relevant_ids?.length ? { relevant_ids: row.relevant_ids } : {}),
        ...(row.reference_contexts?.length ? { reference_contexts: row.reference_contexts } : {}),
      });
      continue;
    }
    kept.add(row.id);
    if (
      before.question_type !== fields.question_type ||
      before.question_text !== fields.question_text ||
      before.ground_truth !== fields.ground_truth
    ) {
      plan.updated.push({ id: row.id, ...fields });
    }
  }
  plan.removed = saved.filter((q) => !kept.has(q.id)).map((q) => q.id);
  return plan;
}
