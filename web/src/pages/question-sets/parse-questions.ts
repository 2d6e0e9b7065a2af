import {
  type FileProblem,
  importSizeProblem,
  type ProblemWords,
  problemWords,
  type QuestionFormat,
  questionFileOutcome,
  questionFormatByName,
} from "../../../../src/evals/questions/parse-file";
import type { QuestionType } from "../../../../src/evals/questions/rules";

// FileUploadParser's side of the server's question file reader (seed 003 section 4.1: files are
// parsed in the browser, never uploaded). The reading is the server's own
// (src/evals/questions/parse-file.ts), so what parses here is exactly what the server accepts;
// this file only counts by the file's lines and words a few problems for a person at a form.

export interface ParsedQuestion {
  question_type: QuestionType;
  question_text: string;
  ground_truth: string;
  /** Acceptable references beyond ground_truth (issue 14 §1). */
  ground_truths?: string[];
  reference_context?: string | null;
  /** Ids of the documents (as given at ingest) or chunks that answer it. */
  relevant_ids?: string[];
  /** Texts of the passages that answer it, matched to retrieved chunks. */
  reference_contexts?: string[];
}

/**
 * A bad row: `line` is the file's line (CSV, JSONL) or the array item (JSON), from 1; unit `file`
 * when the file as a whole is at fault (no line, no field). What is wrong is a coded message
 * (`message`: its English words), which the form words in its language.
 */
export interface RowIssue extends ProblemWords {
  line: number;
  unit: "line" | "item" | "file";
  field: string;
}

export type ParseOutcome =
  { ok: true; questions: ParsedQuestion[] } | { ok: false; issues: RowIssue[] };

export type QuestionFileFormat = QuestionFormat;

export function formatOfFile(name: string): QuestionFileFormat | undefined {
  return questionFormatByName(name);
}

/** A file over the import's byte limit, refused before it is read. */
export function oversizedFileIssue(bytes: number): RowIssue | undefined {
  const problem = importSizeProblem(bytes);
  return problem && issueOf(problem, "csv");
}

/**
 * Parses a question file all or nothing: every bad row (a bad value, an empty question, a repeat
 * of an earlier row) is named with its line and reason, and no question is returned while any is.
 */
export function parseQuestionFile(
  content: string | Uint8Array,
  format: QuestionFileFormat,
): ParseOutcome {
  const outcome = questionFileOutcome(content, format);
  if (!outcome.ok) {
    return { ok: false, issues: outcome.problems.map((problem) => issueOf(problem, format)) };
  }
  const questions = outcome.questions.map((q) => ({
    ...q,
    reference_context: q.reference_context ?? null,
  }));
  return { ok: true, questions };
}

function issueOf(problem: FileProblem, format: QuestionFileFormat): RowIssue {
  const unit =
    problem.row === 0 ? (problem.field === "(header)" ? "line" : "file") : unitOf(format);
  return { line: problem.line, unit, field: problem.field, ...wordsOf(problem, unit) };
}

function unitOf(format: QuestionFileFormat): "line" | "item" {
  return format === "json" ? "item" : "line";
}

/** The server's words, but in the form's own where it counts rows differently or says less. */
function wordsOf(problem: FileProblem, unit: RowIssue["unit"]): ProblemWords {
  const { code, params, message } = problem;
  switch (code) {
    case "file.missing_question":
    case "file.empty_question":
      return problemWords("file.form.empty_question");
    case "file.duplicate":
      return problemWords(unit === "item" ? "file.form.repeats_item" : "file.form.repeats_line", {
        line: problem.earlier?.line ?? "?",
      });
    case "file.header_only":
      return problemWords("file.no_questions");
    default:
      return { code, params, message };
  }
}
