import { QuestionImportError, questionKey, type RowError } from "../questions/index.js";
import { type AnswerLine, type SuppliedAnswer, suppliedAnswerOf } from "./schema.js";

export interface SetQuestion {
  id: string;
  question_text: string;
  position: number;
}

/**
 * Pairs answer lines with an existing question set's questions by their normalized text, all or
 * nothing: a line whose question is not in the set is named by its row, and a question of the set
 * left without an answer is named by its position (row 0, field `questions.N`).
 */
export function matchAnswersToSet(
  questions: readonly SetQuestion[],
  lines: readonly AnswerLine[],
): Map<string, SuppliedAnswer> {
  const byKey = new Map(questions.map((q) => [questionKey(q.question_text), q]));
  const matched = new Map<string, SuppliedAnswer>();
  const errors: RowError[] = [];
  lines.forEach((line, index) => {
    const question = byKey.get(questionKey(line.question));
    if (!question) {
      errors.push({ row: index + 1, field: "question", message: "not a question of the set" });
      return;
    }
    matched.set(question.id, suppliedAnswerOf(line));
  });
  const missing = questions.filter((q) => !matched.has(q.id));
  if (errors.length === 0 && missing.length > 0) {
    const shown = missing
      .slice(0, 5)
      .map((q) => `#${q.position + 1} "${q.question_text.slice(0, 60)}"`);
    const more = missing.length > 5 ? ` and ${missing.length - 5} more` : "";
    throw QuestionImportError.file(
      `${missing.length} question(s) of the set have no answer: ${shown.join(", ")}${more}`,
    );
  }
  if (errors.length > 0) throw new QuestionImportError(errors);
  return matched;
}
