import { questionKey, type QuestionType } from "../../../../src/evals/questions/rules";
import type { ParsedQuestion } from "./parse-questions";

// EditableQuestionTable's state: rows with local keys, every change recorded so the last one can
// be undone before saving, and each row's problems (empty, a repeat) computed from the rows.

export interface TableRow {
  key: number;
  /** The stored question's id, for rows of a saved set. */
  id?: string;
  question_type: QuestionType;
  question_text: string;
  ground_truth: string;
  reference_context?: string | null;
  /** Kept as imported (not edited in the table): what the question's retrieval should find. */
  relevant_ids?: string[] | null;
  reference_contexts?: string[] | null;
}

export interface TableState {
  rows: TableRow[];
  /** Earlier versions of `rows`, the latest last. */
  history: TableRow[][];
  nextKey: number;
}

export type TableAction =
  | { type: "add" }
  | {
      type: "edit";
      key: number;
      field: "question_type" | "question_text" | "ground_truth";
      value: string;
    }
  | { type: "remove"; key: number }
  | { type: "append"; questions: ParsedQuestion[] }
  | { type: "replace"; rows: Omit<TableRow, "key">[] }
  | { type: "undo" };

const HISTORY_LIMIT = 100;

export function initialTable(rows: Omit<TableRow, "key">[] = []): TableState {
  return { rows: rows.map((row, i) => ({ ...row, key: i })), history: [], nextKey: rows.length };
}

function withChange(state: TableState, rows: TableRow[], nextKey = state.nextKey): TableState {
  return { rows, history: [...state.history, state.rows].slice(-HISTORY_LIMIT), nextKey };
}

export function tableReducer(state: TableState, action: TableAction): TableState {
  switch (action.type) {
    case "add":
      return withChange(
        state,
        [
          ...state.rows,
          {
            key: state.nextKey,
            question_type: "USER_DEFINED",
            question_text: "",
            ground_truth: "",
          },
        ],
        state.nextKey + 1,
      );
    case "edit": {
      const rows = state.rows.map((row) =>
        row.key === action.key ? { ...row, [action.field]: action.value } : row,
      );
      // Typing in one cell is one change: merge it with the previous edit of the same cell.
      const previous = state.history.at(-1);
      const last = state.rows.find((r) => r.key === action.key);
      const sameCell =
        previous !== undefined &&
        last !== undefined &&
        previous.length === state.rows.length &&
        previous.every((r, i) => r.key === state.rows[i]?.key) &&
        differsOnlyIn(previous, state.rows, action.key, action.field);
      if (sameCell) return { ...state, rows };
      return withChange(state, rows);
    }
    case "remove":
      return withChange(
        state,
        state.rows.filter((row) => row.key !== action.key),
      );
    case "append": {
      const added = action.questions.map((q, i) => ({ ...q, key: state.nextKey + i }));
      return withChange(state, [...state.rows, ...added], state.nextKey + added.length);
    }
    case "replace":
      return withChange(
        state,
        action.rows.map((row, i) => ({ ...row, key: state.nextKey + i })),
        state.nextKey + action.rows.length,
      );
    case "undo": {
      const previous = state.history.at(-1);
      if (!previous) return state;
      return { ...state, rows: previous, history: state.history.slice(0, -1) };
    }
  }
}

function differsOnlyIn(a: TableRow[], b: TableRow[], key: number, field: keyof TableRow): boolean {
  return a.every((row, i) => {
    const other = b[i];
    if (!other) return false;
    if (row.key !== key) return row === other;
    return (Object.keys(row) as (keyof TableRow)[]).every(
      (f) => f === field || row[f] === other[f],
    );
  });
}

export type RowProblem = { kind: "empty" } | { kind: "duplicate"; of: number };

/** Problems by row key: an empty question, or a repeat of an earlier row (its 1-based number). */
export function rowProblems(rows: readonly TableRow[]): Map<number, RowProblem> {
  const problems = new Map<number, RowProblem>();
  const first = new Map<string, number>();
  rows.forEach((row, index) => {
    const key = questionKey(row.question_text);
    if (key === "") {
      problems.set(row.key, { kind: "empty" });
      return;
    }
    const earlier = first.get(key);
    if (earlier !== undefined) problems.set(row.key, { kind: "duplicate", of: earlier + 1 });
    else first.set(key, index);
  });
  return problems;
}
