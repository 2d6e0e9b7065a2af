import {
  type AnswerLineInput,
  answersFileOutcome,
  type FileProblem,
} from "../../../../src/evals/answers/parse-file";
import {
  importSizeProblem,
  type ProblemWords,
  problemWords,
  type QuestionFormat,
  questionFormatByName,
} from "../../../../src/evals/questions/parse-file";

// The new-arena form's side of the server's answers file reader (issue 14 §1: `.jsonl`, `.json`
// or `.csv` of {question, answer, ground_truth?, contexts?, ...}). The reading is the server's own
// (src/evals/answers/parse-file.ts): the same fields, limits, list cells and bad rows as
// `ragjudge eval --answers`, so the rows sent are rows the API accepts. It keeps each row's line,
// so a row the server refuses later (one not in the question set) is named by it (arena-form.ts).
// NewArenaPage loads it at the first file, with its CSV parser and schema.

export type AnswersFileFormat = QuestionFormat;

export interface AnswersFile {
  /** Each answer as the API takes it (POST /api/v1/arenas, a contestant's `answers`). */
  rows: AnswerLineInput[];
  /** rows[i] came from this line of the file (CSV, JSONL) or item of its array (JSON), from 1. */
  lines: number[];
}

/**
 * A bad line, or the file as a whole (`line` null: no line, no field). What is wrong is a coded
 * message (`message`: its English words), which the form words in its language.
 */
export type AnswersFileIssue = ProblemWords &
  ({ line: number; /** The field at fault, or "(row)". */ field: string } | { line: null });

export type AnswersFileOutcome =
  { ok: true; file: AnswersFile } | { ok: false; issues: AnswersFileIssue[] };

export function answersFormatOf(name: string): AnswersFileFormat | undefined {
  return questionFormatByName(name);
}

/** A file whose name says no format the reader reads. */
export function unknownFormatIssue(name: string): AnswersFileIssue {
  return { line: null, ...problemWords("file.unknown_format", { file: name }) };
}

/** A file over the import's byte limit, refused before it is read. */
export function oversizedAnswersIssue(bytes: number): AnswersFileIssue | undefined {
  const problem = importSizeProblem(bytes);
  return problem && issueOf(problem);
}

/** Reads an answers file all or nothing: every bad line is named, and no row kept while any is. */
export function parseAnswersFile(
  content: string | Uint8Array,
  format: AnswersFileFormat,
): AnswersFileOutcome {
  const outcome = answersFileOutcome(content, format);
  if (!outcome.ok) return { ok: false, issues: outcome.problems.map(issueOf) };
  return {
    ok: true,
    file: {
      rows: outcome.answers.map(({ input }) => input),
      lines: outcome.answers.map(({ row }) => outcome.lineOf(row)),
    },
  };
}

/**
 * The server's words, by the file's lines (the form names a line "row N"); a problem of the file
 * as a whole (its size, encoding, header, or no rows at all) names no line. A CSV header's
 * problem is one of the whole file too: the form counts data rows.
 */
function issueOf(problem: FileProblem): AnswersFileIssue {
  const { code, params, message } = problem;
  if (problem.row === 0) return { line: null, code, params, message };
  const words =
    code === "file.answer_not_object"
      ? problemWords("file.form.not_object")
      : code === "file.same_question"
        ? problemWords("file.form.same_question", { line: problem.earlier?.line ?? "?" })
        : { code, params, message };
  return { line: problem.line, field: problem.field, ...words };
}
