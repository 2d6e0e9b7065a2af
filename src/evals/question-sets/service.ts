import {
  type Actor,
  addQuestions,
  changeQuestions,
  CollectionNotFoundError,
  createQuestionSet,
  type Db,
  DuplicateQuestionsError,
  deleteQuestion,
  deleteQuestionSet,
  findCollectionByName,
  getCollection,
  getQuestionSet,
  getQuestionSetVersion,
  listQuestionSetVersions,
  listQuestions,
  type NewQuestion,
  QuestionNotInSetError,
  type QuestionRow,
  QuestionSetNotFoundError,
  type QuestionSetRow,
  type QuestionSetVersionRow,
  type QuestionSetVersionSummary,
  restoreQuestions,
  updateQuestion,
  updateQuestionSet,
  type VersionQuestion,
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
import { diffVersions, type VersionDiff } from "./diff.js";
import {
  QuestionNotFoundError,
  QuestionSetRequestError,
  QuestionSetVersionNotFoundError,
} from "./errors.js";
import type {
  ChangeQuestions,
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
  change: "created" | "imported" = "created",
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
      change: input.origin === "generation" ? "generated" : change,
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
  return createQuestionSetWithQuestions(db, actor, { ...meta, questions }, "imported");
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

export interface QuestionSetVersionFile extends QuestionSetFile {
  version: { id: string; number: number };
}

/**
 * A version of the set (the latest by default) as a file parseQuestionFile reads back unchanged,
 * each row carrying the version's id. One version always gives the same bytes: its questions are
 * a stored snapshot and the file is written from them alone.
 */
export async function exportQuestionSet(
  db: Db,
  workspaceId: string,
  id: string,
  format: QuestionFormat,
  versionNumber?: number,
): Promise<QuestionSetVersionFile> {
  const set = await mustGetSet(db, workspaceId, id);
  const version = await mustGetVersion(db, workspaceId, set.id, versionNumber);
  return {
    filename: `${fileStem(set.name)}.version-${version.number}.${format}`,
    contentType: CONTENT_TYPES[format],
    body: exportQuestions(version.questions, format, { versionId: version.id }),
    version: { id: version.id, number: version.number },
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
  actor: Actor,
  setId: string,
  questions: readonly QuestionInput[],
  origin?: "generation",
): Promise<QuestionRow[]> {
  assertNoRepeats(questions);
  const set = await mustGetSet(db, actor.workspaceId, setId);
  const limit = QUESTION_LIMITS.questionsPerSet;
  if (set.question_count + questions.length > limit) {
    throw new QuestionSetRequestError([
      {
        path: "questions",
        message: `the set has ${set.question_count} questions; ${questions.length} more would exceed ${limit}`,
      },
    ]);
  }
  return addQuestions(
    db,
    actor,
    set.id,
    questions.map(newQuestion),
    origin === "generation" ? "generated" : "appended",
  );
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
  actor: Actor,
  id: string,
  patch: UpdateQuestion,
): Promise<QuestionRow> {
  const fields = storedPatch(patch);
  try {
    const row = await updateQuestion(db, actor, id, fields);
    if (!row) throw new QuestionNotFoundError(id);
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DuplicateQuestionsError([{ index: 0, question_text: patch.question_text ?? "" }]);
    }
    throw error;
  }
}

/** A patch of a question's fields as the store keeps them. */
function storedPatch(patch: Omit<UpdateQuestion, "id">): Partial<NewQuestion> {
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
  return fields;
}

export async function removeQuestion(db: Db, actor: Actor, id: string): Promise<void> {
  if (!(await deleteQuestion(db, actor, id))) throw new QuestionNotFoundError(id);
}

/**
 * One save of the editor: removals, edits and additions in one transaction and one new version,
 * all or nothing. An id that is not a live question of the set is a QuestionNotFoundError; a text
 * two questions would share a DuplicateQuestionsError.
 */
export async function changeSetQuestions(
  db: Db,
  actor: Actor,
  setId: string,
  changes: ChangeQuestions,
): Promise<QuestionSetWithQuestions> {
  assertNoRepeats(changes.added);
  const set = await mustGetSet(db, actor.workspaceId, setId);
  const limit = QUESTION_LIMITS.questionsPerSet;
  const after = set.question_count - changes.removed.length + changes.added.length;
  if (after > limit) {
    throw new QuestionSetRequestError([
      { path: "added", message: `the set would have ${after} questions; at most ${limit}` },
    ]);
  }
  try {
    await changeQuestions(
      db,
      actor,
      set.id,
      {
        removed: changes.removed,
        updated: changes.updated.map(({ id, ...patch }) => ({ id, patch: storedPatch(patch) })),
        added: changes.added.map(newQuestion),
      },
      changes.origin === "generation" ? "generated" : "edited",
    );
  } catch (error) {
    if (error instanceof QuestionNotInSetError) throw new QuestionNotFoundError(error.id);
    // An edited text another question of the set has (the added ones are named by the store).
    if (isUniqueViolation(error)) {
      throw new DuplicateQuestionsError(
        changes.updated
          .map((u, index) => ({ index, question_text: u.question_text ?? "" }))
          .filter((u) => u.question_text !== ""),
      );
    }
    throw error;
  }
  return getQuestionSetWithQuestions(db, actor.workspaceId, set.id);
}

async function mustGetVersion(
  db: Db,
  workspaceId: string,
  setId: string,
  number?: number,
): Promise<QuestionSetVersionRow> {
  const version = await getQuestionSetVersion(db, workspaceId, setId, number);
  if (!version) throw new QuestionSetVersionNotFoundError(setId, number ?? null);
  return version;
}

/** The set's versions, newest first, each with who made it and when. */
export async function questionSetVersions(
  db: Db,
  workspaceId: string,
  setId: string,
): Promise<QuestionSetVersionSummary[]> {
  const set = await mustGetSet(db, workspaceId, setId);
  return listQuestionSetVersions(db, workspaceId, set.id);
}

/** One version with its questions; the latest when `number` is undefined. */
export async function questionSetVersion(
  db: Db,
  workspaceId: string,
  setId: string,
  number?: number,
): Promise<QuestionSetVersionRow> {
  const set = await mustGetSet(db, workspaceId, setId);
  return mustGetVersion(db, workspaceId, set.id, number);
}

export type VersionSummary = Omit<QuestionSetVersionRow, "questions">;

export interface QuestionSetVersionDiff extends VersionDiff<VersionQuestion> {
  from: VersionSummary;
  to: VersionSummary;
}

const summaryOf = ({ questions: _questions, ...rest }: QuestionSetVersionRow): VersionSummary =>
  rest;

/** What changed from version `from` to version `to` (either may be the newer). */
export async function diffQuestionSetVersions(
  db: Db,
  workspaceId: string,
  setId: string,
  from: number,
  to: number,
): Promise<QuestionSetVersionDiff> {
  const set = await mustGetSet(db, workspaceId, setId);
  const [a, b] = await Promise.all([
    mustGetVersion(db, workspaceId, set.id, from),
    mustGetVersion(db, workspaceId, set.id, to),
  ]);
  return { from: summaryOf(a), to: summaryOf(b), ...diffVersions(a.questions, b.questions) };
}

/**
 * Makes an old version's questions the set's questions again, as a new version (`restored`,
 * naming the one it copies). Restoring the latest changes nothing and makes no version.
 */
export async function restoreQuestionSetVersion(
  db: Db,
  actor: Actor,
  setId: string,
  number: number,
): Promise<VersionSummary> {
  const set = await mustGetSet(db, actor.workspaceId, setId);
  const version = await mustGetVersion(db, actor.workspaceId, set.id, number);
  await restoreQuestions(
    db,
    actor,
    set.id,
    version.questions.map((q) => ({
      id: q.id,
      question_type: q.question_type,
      question_text: q.question_text,
      ground_truth: q.ground_truth,
      ground_truths: q.ground_truths,
      reference_context: q.reference_context,
      relevant_ids: q.relevant_ids,
      reference_contexts: q.reference_contexts,
      question_key: questionKey(q.question_text),
    })),
    version.number,
  );
  return summaryOf(await mustGetVersion(db, actor.workspaceId, set.id));
}
