import {
  type Actor,
  addQuestions,
  CollectionNotFoundError,
  createQuestionSet,
  type Db,
  DuplicateQuestionsError,
  deleteQuestion,
  deleteQuestionSet,
  findCollectionByName,
  getCollection,
  getQuestionSet,
  listQuestions,
  type NewQuestion,
  type QuestionRow,
  QuestionSetNotFoundError,
  type QuestionSetRow,
  updateQuestion,
  updateQuestionSet,
} from "../../store/index.js";
import {
  exportQuestions,
  findDuplicates,
  parseQuestionFileOffThread,
  QUESTION_LIMITS,
  type QuestionFormat,
  type QuestionInput,
  questionKey,
  storedList,
  storedReferences,
  storedRelevance,
} from "../questions/index.js";
import { QuestionNotFoundError, QuestionSetRequestError } from "./errors.js";
import type {
  CreateQuestionSet,
  ImportQuestionSet,
  UpdateQuestion,
  UpdateQuestionSet,
} from "./schema.js";

// Seed 003's QuestionSetService: question sets and their questions, for one user. Every id that is
// malformed, deleted or another user's reads as not found.

export interface QuestionSetWithQuestions {
  set: QuestionSetRow;
  questions: QuestionRow[];
}

/** The user's collection by id or name; throws CollectionNotFoundError. */
export async function resolveCollectionId(
  db: Db,
  workspaceId: string,
  ref: string,
): Promise<string> {
  const row =
    (await getCollection(db, workspaceId, ref)) ??
    (await findCollectionByName(db, workspaceId, ref));
  if (!row) throw new CollectionNotFoundError(ref);
  return row.id;
}

async function resolveOptionalCollection(
  db: Db,
  workspaceId: string,
  ref: string | null | undefined,
): Promise<string | null | undefined> {
  if (ref === undefined) return undefined;
  // An empty or null collection_id clears it.
  return ref ? resolveCollectionId(db, workspaceId, ref) : null;
}

function newQuestion(question: QuestionInput & { question_key?: string }): NewQuestion {
  return {
    question_type: question.question_type,
    question_text: question.question_text,
    ...storedReferences(question),
    reference_context: question.reference_context ?? null,
    ...storedRelevance(question),
    question_key: question.question_key ?? questionKey(question.question_text),
  };
}

/** Repeats inside one list, named by their index in it (`questions.4.question_text`). */
function assertNoRepeats(questions: readonly QuestionInput[]): void {
  const duplicates = findDuplicates(questions);
  if (duplicates.length === 0) return;
  throw new QuestionSetRequestError(
    duplicates.map((d) => ({
      path: `questions.${d.row - 1}.question_text`,
      message: `duplicate of questions.${(d.duplicate_of_row ?? d.row) - 1}`,
    })),
    `${duplicates.length} question(s) repeat an earlier one in the list; nothing was written`,
  );
}

async function mustGetSet(db: Db, workspaceId: string, id: string): Promise<QuestionSetRow> {
  const set = await getQuestionSet(db, workspaceId, id);
  if (!set) throw new QuestionSetNotFoundError(id);
  return set;
}

/** Seed 003 flow 1: the metadata and the whole list in one transaction. */
export async function createQuestionSetWithQuestions(
  db: Db,
  actor: Actor,
  input: CreateQuestionSet,
): Promise<QuestionSetWithQuestions> {
  assertNoRepeats(input.questions);
  const { workspaceId } = actor;
  const collectionId = await resolveOptionalCollection(db, workspaceId, input.collection_id);
  const set = await createQuestionSet(
    db,
    workspaceId,
    {
      user_id: actor.userId,
      name: input.name,
      description: input.description ?? null,
      collection_id: collectionId,
    },
    input.questions.map(newQuestion),
  );
  return { set, questions: await listQuestions(db, workspaceId, set.id) };
}

/**
 * A new set from a CSV, JSON or JSONL file, all or nothing: a QuestionImportError names every bad
 * row and nothing is written.
 */
export async function importQuestionSet(
  db: Db,
  actor: Actor,
  input: ImportQuestionSet,
): Promise<QuestionSetWithQuestions> {
  // Read on the parse thread: a large file must not hold up other requests.
  const questions = await parseQuestionFileOffThread(input.content, input.format);
  const { format: _format, content: _content, ...meta } = input;
  return createQuestionSetWithQuestions(db, actor, { ...meta, questions });
}

export async function getQuestionSetWithQuestions(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<QuestionSetWithQuestions> {
  const set = await mustGetSet(db, workspaceId, id);
  return { set, questions: await listQuestions(db, workspaceId, set.id) };
}

export interface QuestionSetFile {
  filename: string;
  contentType: string;
  body: string;
}

const CONTENT_TYPES: Record<QuestionFormat, string> = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
};

/** A file name safe in any header: the set's name in ASCII letters, digits, `-` and `_`. */
function fileStem(name: string): string {
  const stem = name
    .normalize("NFKD")
    .replace(/[^\w-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return stem || "question-set";
}

/** The set as a file parseQuestionFile reads back unchanged. */
export async function exportQuestionSet(
  db: Db,
  workspaceId: string,
  id: string,
  format: QuestionFormat,
): Promise<QuestionSetFile> {
  const { set, questions } = await getQuestionSetWithQuestions(db, workspaceId, id);
  return {
    filename: `${fileStem(set.name)}.${format}`,
    contentType: CONTENT_TYPES[format],
    body: exportQuestions(questions, format),
  };
}

export async function updateQuestionSetMeta(
  db: Db,
  workspaceId: string,
  id: string,
  patch: UpdateQuestionSet,
): Promise<QuestionSetRow> {
  await mustGetSet(db, workspaceId, id);
  const collectionId = await resolveOptionalCollection(db, workspaceId, patch.collection_id);
  const row = await updateQuestionSet(db, workspaceId, id, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(collectionId !== undefined ? { collection_id: collectionId } : {}),
  });
  if (!row) throw new QuestionSetNotFoundError(id);
  return row;
}

export async function removeQuestionSet(db: Db, workspaceId: string, id: string): Promise<void> {
  if (!(await deleteQuestionSet(db, workspaceId, id))) {
    throw new QuestionSetNotFoundError(id);
  }
}

/**
 * Appends questions, all or none: a repeat inside the list is a QuestionSetRequestError, a repeat
 * of a question already in the set a DuplicateQuestionsError naming each.
 */
export async function appendQuestions(
  db: Db,
  workspaceId: string,
  setId: string,
  questions: readonly QuestionInput[],
): Promise<QuestionRow[]> {
  assertNoRepeats(questions);
  const set = await mustGetSet(db, workspaceId, setId);
  const limit = QUESTION_LIMITS.questionsPerSet;
  if (set.question_count + questions.length > limit) {
    throw new QuestionSetRequestError([
      {
        path: "questions",
        message: `the set has ${set.question_count} questions; ${questions.length} more would exceed ${limit}`,
      },
    ]);
  }
  return addQuestions(db, workspaceId, set.id, questions.map(newQuestion));
}

/** True for PostgreSQL's unique_violation, however the driver wraps it. */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** Edits one question; a new text that another question of its set has is a DuplicateQuestionsError. */
export async function editQuestion(
  db: Db,
  workspaceId: string,
  id: string,
  patch: UpdateQuestion,
): Promise<QuestionRow> {
  const { question_text, ground_truth, ground_truths, relevant_ids, reference_contexts, ...rest } =
    patch;
  const fields: Partial<NewQuestion> = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  );
  // The references move together: a new ground_truth alone replaces the list too.
  if (ground_truth !== undefined || ground_truths !== undefined) {
    Object.assign(fields, storedReferences({ ground_truth, ground_truths }));
  }
  // An empty list clears the field.
  if (relevant_ids !== undefined) fields.relevant_ids = storedList(relevant_ids);
  if (reference_contexts !== undefined) fields.reference_contexts = storedList(reference_contexts);
  if (question_text !== undefined) {
    fields.question_text = question_text;
    fields.question_key = questionKey(question_text);
  }
  try {
    const row = await updateQuestion(db, workspaceId, id, fields);
    if (!row) throw new QuestionNotFoundError(id);
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DuplicateQuestionsError([{ index: 0, question_text: question_text ?? "" }]);
    }
    throw error;
  }
}

export async function removeQuestion(db: Db, workspaceId: string, id: string): Promise<void> {
  if (!(await deleteQuestion(db, workspaceId, id))) throw new QuestionNotFoundError(id);
}
