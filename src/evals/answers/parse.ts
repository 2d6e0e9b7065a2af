import {
  importErrorOf,
  type QuestionFormat,
  type QuestionInput,
  type RawRow,
  storedReferences,
  storedRelevance,
} from "../questions/index.js";
import { answerRowsOutcome, answersFileOutcome } from "./parse-file.js";
import type { AnswerLine } from "./schema.js";

// The server's side of the answers reader (parse-file.ts, which the web app shares): its problems
// as a QuestionImportError, rows counted as the API and the CLI name them.

/**
 * Validates answer lines, all or nothing: a QuestionImportError names every bad row and field
 * (and every question asked twice); `rows` gives each line's number as the user counts it.
 */
export function validateAnswerLines(rows: readonly RawRow[]): AnswerLine[] {
  const outcome = answerRowsOutcome(rows);
  if (!outcome.ok) throw importErrorOf(outcome.problems);
  return outcome.answers.map(({ answer }) => answer);
}

/**
 * Parses an answers file (.jsonl, .json or .csv; issue 14 §1), all or nothing. Rows are JSONL
 * lines, JSON array positions or CSV data rows, counted from 1. In CSV, list fields
 * (ground_truths, contexts, citations) hold JSON lists; a plain cell is one item.
 */
export function parseAnswersFile(
  content: string | Uint8Array,
  format: QuestionFormat,
): AnswerLine[] {
  const outcome = answersFileOutcome(content, format);
  if (!outcome.ok) throw importErrorOf(outcome.problems);
  return outcome.answers.map(({ answer }) => answer);
}

/** The question set an answers file brings: its questions with their references. */
export function questionsOfAnswers(lines: readonly AnswerLine[]): QuestionInput[] {
  return lines.map((line) => {
    const { ground_truth, ground_truths } = storedReferences(line);
    const { relevant_ids, reference_contexts } = storedRelevance(line);
    return {
      question_type: line.question_type ?? "USER_DEFINED",
      question_text: line.question,
      ground_truth,
      ...(ground_truths ? { ground_truths } : {}),
      ...(relevant_ids ? { relevant_ids } : {}),
      ...(reference_contexts ? { reference_contexts } : {}),
    };
  });
}
