import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { type AnswerLine, parseAnswersFile } from "../evals/answers/index.js";
import {
  parseQuestionFile,
  type QuestionInput,
  questionFormatOf,
  questionKey,
  storedReferences,
} from "../evals/questions/index.js";
import {
  type Actor,
  createQuestionSet,
  type Db,
  getQuestionSet,
  listQuestionSets,
  type QuestionSetRow,
} from "../store/index.js";
import type { StoreSession } from "./store-session.js";
import { UsageError } from "./usage-error.js";

/** A question file read and validated, not yet stored: a bad file throws QuestionImportError. */
export interface ParsedQuestionFile {
  /** The set's name: the file's name without its extension. */
  name: string;
  path: string;
  questions: QuestionInput[];
}

export async function readQuestionFile(path: string): Promise<ParsedQuestionFile> {
  const format = questionFormatOf(path);
  const questions = parseQuestionFile(new Uint8Array(await readFile(path)), format);
  const name = basename(path).replace(/\.[^.]+$/, "") || basename(path);
  return { name, path, questions };
}

/** An answers file read and validated (issue 14 §1): a bad file throws QuestionImportError. */
export interface ParsedAnswersFile {
  name: string;
  path: string;
  lines: AnswerLine[];
}

export async function readAnswersFile(path: string): Promise<ParsedAnswersFile> {
  const format = questionFormatOf(path);
  const lines = parseAnswersFile(new Uint8Array(await readFile(path)), format);
  const name = basename(path).replace(/\.[^.]+$/, "") || basename(path);
  return { name, path, lines };
}

/** Stores a parsed file as a new question set, in one transaction. */
export function storeQuestionFile(
  db: Db,
  actor: Actor,
  file: ParsedQuestionFile,
  collectionId: string | null,
): Promise<QuestionSetRow> {
  return createQuestionSet(
    db,
    actor.workspaceId,
    {
      user_id: actor.userId,
      name: file.name,
      description: `Imported from ${basename(file.path)}`,
      collection_id: collectionId,
      change: "imported",
    },
    file.questions.map((q) => ({
      question_type: q.question_type,
      question_text: q.question_text,
      ...storedReferences(q),
      reference_context: q.reference_context ?? null,
      question_key: questionKey(q.question_text),
    })),
  );
}

/** The user's newest question set of this name, if any. */
export async function findQuestionSetByName(
  db: Db,
  workspaceId: string,
  name: string,
): Promise<QuestionSetRow | undefined> {
  return (await listQuestionSets(db, workspaceId)).find((set) => set.name === name);
}

/**
 * The question set to run: `ref` names an existing set's id, or a file imported now (all or
 * nothing). `prepare` readies the collection (after a file parsed, before it is stored).
 */
export async function questionSetFor(
  session: StoreSession,
  ref: string,
  prepare: () => Promise<string | null>,
): Promise<QuestionSetRow> {
  const db = session.store.db;
  if (!existsSync(ref)) {
    await prepare();
    const set = await getQuestionSet(db, session.actor.workspaceId, ref);
    if (!set) throw new UsageError(`--questions: question set ${ref} not found`);
    return set;
  }
  // Parse first: a bad file stops the command before anything is ingested or stored.
  const file = await readQuestionFile(ref);
  const collectionId = await prepare();
  const set = await storeQuestionFile(db, session.actor, file, collectionId);
  process.stderr.write(
    `Imported ${file.questions.length} questions from ${ref} as question set "${set.name}" (${set.id})\n`,
  );
  return set;
}
