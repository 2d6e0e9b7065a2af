import { ApiError } from "../../api/client";
import type { ProblemWords } from "../../../../src/evals/questions/parse-file";
import type { AnswersFile, AnswersFileIssue } from "./answers-file";

// The new-arena form's logic: what a contestant is, what the form can tell before asking the
// server, the request it sends (POST /api/v1/arenas), and the server's 400s placed beside the
// field (or the contestant) they name.

export const ARENA_JUDGES = ["offline", "rubric", "reference", "pairwise"] as const;
export type ArenaJudge = (typeof ARENA_JUDGES)[number];
export const CONTESTANT_KINDS = ["evaluation", "http", "builtin", "answers"] as const;
export type ContestantKind = (typeof CONTESTANT_KINDS)[number];

export interface ContestantForm {
  name: string;
  kind: ContestantKind;
  evaluation_id: string;
  url: string;
  /** The built-in bot's collection; empty = the question set's. */
  collection_id: string;
  fileName: string;
  file: AnswersFile | null;
  fileIssues: AnswersFileIssue[];
}

export interface ArenaForm {
  name: string;
  question_set_id: string;
  judge: ArenaJudge;
  rounds: number;
  contestants: ContestantForm[];
}

export type ContestantField = "name" | "evaluation_id" | "url" | "collection_id" | "file";
export interface ArenaErrors {
  name?: string;
  question_set_id?: string;
  judge?: string;
  rounds?: string;
  form?: string;
  contestants: Partial<Record<ContestantField, string>>[];
}

export function emptyContestant(n: number, kind: ContestantKind = "evaluation"): ContestantForm {
  return {
    name: `system-${n}`,
    kind,
    evaluation_id: "",
    url: "",
    collection_id: "",
    fileName: "",
    file: null,
    fileIssues: [],
  };
}

export interface ArenaMessages {
  pickSet: string;
  needTwo: string;
  needName: string;
  sameName: string;
  pickRun: string;
  badUrl: string;
  pickFile: string;
  /** A bad row of an answers file, as a person reads it. */
  fileLine: (line: number, field: string, message: string) => string;
  /** A problem of an answers file as a whole (no row, no field), as a person reads it. */
  fileWhole: (message: string) => string;
  /** A file's problem (a code and what fills it) in the reader's language. */
  say: (words: ProblemWords) => string;
}

export function hasErrors(errors: ArenaErrors): boolean {
  return (
    Object.entries(errors).some(([k, v]) => k !== "contestants" && v !== undefined) ||
    errors.contestants.some((c) => Object.keys(c).length > 0)
  );
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** What the form can tell before asking the server. */
export function validateArenaForm(form: ArenaForm, messages: ArenaMessages): ArenaErrors {
  const errors: ArenaErrors = { contestants: form.contestants.map(() => ({})) };
  if (!form.question_set_id) errors.question_set_id = messages.pickSet;
  if (form.contestants.length < 2) errors.form = messages.needTwo;
  const seen = new Set<string>();
  form.contestants.forEach((c, i) => {
    const own = errors.contestants[i]!;
    const name = c.name.trim();
    if (!name) own.name = messages.needName;
    else if (seen.has(name)) own.name = messages.sameName;
    seen.add(name);
    if (c.kind === "evaluation" && !c.evaluation_id) own.evaluation_id = messages.pickRun;
    if (c.kind === "http" && !isHttpUrl(c.url)) own.url = messages.badUrl;
    if (c.kind === "answers") {
      if (c.fileIssues.length > 0) {
        own.file = c.fileIssues
          .map((issue) =>
            issue.line === null
              ? messages.fileWhole(messages.say(issue))
              : messages.fileLine(issue.line, issue.field, messages.say(issue)),
          )
          .join("; ");
      } else if (!c.file) own.file = messages.pickFile;
    }
  });
  return errors;
}

/** The request body of POST /api/v1/arenas. */
export function arenaRequestOf(form: ArenaForm) {
  return {
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    question_set_id: form.question_set_id,
    judge: form.judge,
    rounds: form.rounds,
    contestants: form.contestants.map((c) => {
      const name = c.name.trim();
      if (c.kind === "evaluation") return { name, evaluation_id: c.evaluation_id };
      if (c.kind === "http") return { name, bot: { kind: "http" as const, url: c.url.trim() } };
      if (c.kind === "answers") return { name, answers: c.file?.rows ?? [] };
      return {
        name,
        bot: { kind: "builtin" as const },
        ...(c.collection_id ? { collection_id: c.collection_id } : {}),
      };
    }),
  };
}

const FIELD_OF: Record<string, ContestantField> = {
  name: "name",
  evaluation_id: "evaluation_id",
  bot: "url",
  collection_id: "collection_id",
  answers: "file",
  loops: "collection_id",
};

/** The file line of the server's row number (the 1-based index of the answers it was sent). */
export function rowOf(file: AnswersFile, row: number): number {
  return file.lines[row - 1] ?? row;
}

/** A server 400 (or 404 for a run or set) beside the field or contestant it names. */
export function arenaErrorsOf(
  error: unknown,
  form: ArenaForm,
  messages: ArenaMessages,
): ArenaErrors {
  const errors: ArenaErrors = { contestants: form.contestants.map(() => ({})) };
  if (!ApiError.isInstance(error)) {
    errors.form = error instanceof Error ? error.message : String(error);
    return errors;
  }
  const body = (error.body ?? {}) as {
    contestant?: string;
    issues?: { path?: unknown; message?: string }[];
    rows?: { row: number; field: string; message: string }[];
  };
  const add = (i: number, field: ContestantField, message: string) => {
    const own = errors.contestants[i];
    if (!own) {
      errors.form = errors.form ? `${errors.form}; ${message}` : message;
      return;
    }
    own[field] = own[field] ? `${own[field]}; ${message}` : message;
  };
  // An arena contestant that does not fit (its answers, its run, its bot): named by the server.
  const named =
    body.contestant === undefined
      ? -1
      : form.contestants.findIndex((c) => c.name.trim() === body.contestant);
  if (named >= 0 && body.rows && body.rows.length > 0) {
    const file = form.contestants[named]!.file;
    for (const row of body.rows) {
      add(
        named,
        "file",
        messages.fileLine(file ? rowOf(file, row.row) : row.row, row.field, row.message),
      );
    }
    return errors;
  }
  const issues = Array.isArray(body.issues) ? body.issues : [];
  for (const issue of issues) {
    const path = Array.isArray(issue.path) ? issue.path.join(".") : String(issue.path ?? "");
    const message = issue.message ?? error.message;
    const parts = path.split(".");
    if (parts[0] === "contestants" && /^\d+$/.test(parts[1] ?? "")) {
      const i = Number(parts[1]);
      const field = FIELD_OF[parts[2] ?? ""];
      if (field === "file" && /^\d+$/.test(parts[3] ?? "")) {
        const file = form.contestants[i]?.file;
        const row = Number(parts[3]) + 1;
        add(
          i,
          "file",
          messages.fileLine(
            file ? rowOf(file, row) : row,
            parts.slice(4).join(".") || "(row)",
            message,
          ),
        );
      } else if (field) add(i, field, message);
      else add(i, "name", message);
    } else if (named >= 0) {
      add(named, FIELD_OF[parts[0] ?? ""] ?? "name", message);
    } else if (parts[0] === "question_set_id") errors.question_set_id = message;
    else if (parts[0] === "judge") errors.judge = message;
    else if (parts[0] === "rounds") errors.rounds = message;
    else if (parts[0] === "name") errors.name = message;
    else errors.form = errors.form ? `${errors.form}; ${message}` : message;
  }
  if (!hasErrors(errors)) {
    if (named >= 0) add(named, "name", error.message);
    else errors.form = error.message;
  }
  return errors;
}
