import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import {
  lockQuestionSet,
  type QuestionSetChange,
  recordQuestionSetVersion,
} from "./question-set-versions.js";
import { question_sets, questions } from "./schema.js";
import type { Actor } from "./workspaces.js";

export type QuestionSetRow = typeof question_sets.$inferSelect;
export type QuestionRow = typeof questions.$inferSelect;

/**
 * A question as the store takes it; `question_key` is its normalized text (duplicate lookups),
 * `ground_truths` every reference when there are several (ground_truth is the first).
 */
export type NewQuestion = Pick<
  QuestionRow,
  "question_type" | "question_text" | "ground_truth" | "question_key"
> &
  Partial<
    Pick<QuestionRow, "ground_truths" | "reference_context" | "relevant_ids" | "reference_contexts">
  >;

export class QuestionSetNotFoundError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "not_found";
  override readonly name = "QuestionSetNotFoundError";
  constructor(readonly id: string) {
    super(`question set ${id} not found`);
  }
}

/** A question id that is not a live question of the set being changed; nothing was written. */
export class QuestionNotInSetError extends Error {
  override readonly name = "QuestionNotInSetError";
  constructor(readonly id: string) {
    super(`question ${id} is not in the set`);
  }
}

/** Questions whose normalized text is already in the set; nothing was written. */
export class DuplicateQuestionsError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "conflict";
  override readonly name = "DuplicateQuestionsError";
  constructor(readonly duplicates: Array<{ index: number; question_text: string }>) {
    super(
      `${duplicates.length} question(s) already in the set: ` +
        duplicates
          .slice(0, 3)
          .map((d) => `#${d.index + 1} "${d.question_text.slice(0, 60)}"`)
          .join(", "),
    );
  }
}

const live = isNull(question_sets.gmt_deleted);

export async function createQuestionSet(
  db: Db,
  workspaceId: string,
  meta: {
    /** Who makes it. */
    user_id: string;
    name: string;
    description?: string | null;
    collection_id?: string | null;
    /** What the first version says made it (default `created`). */
    change?: Extract<QuestionSetChange, "created" | "imported" | "generated">;
  },
  items: readonly NewQuestion[],
): Promise<QuestionSetRow> {
  return db.transaction(async (tx) => {
    const [set] = await tx
      .insert(question_sets)
      .values({
        workspace_id: workspaceId,
        user_id: meta.user_id,
        name: meta.name,
        description: meta.description ?? null,
        collection_id: meta.collection_id ?? null,
        question_count: items.length,
      })
      .returning();
    if (!set) throw new Error("insert into question_sets returned no row");
    await insertQuestions(tx as unknown as Db, workspaceId, set.id, 0, items);
    await recordQuestionSetVersion(
      tx as unknown as Db,
      { workspaceId, userId: meta.user_id },
      set.id,
      meta.change ?? "created",
    );
    return set;
  });
}

async function insertQuestions(
  db: Db,
  workspaceId: string,
  setId: string,
  firstPosition: number,
  items: readonly NewQuestion[],
): Promise<QuestionRow[]> {
  const rows: QuestionRow[] = [];
  for (let i = 0; i < items.length; i += 1000) {
    const batch = items.slice(i, i + 1000).map((item, j) => ({
      workspace_id: workspaceId,
      question_set_id: setId,
      position: firstPosition + i + j,
      question_type: item.question_type,
      question_text: item.question_text,
      ground_truth: item.ground_truth,
      ground_truths: item.ground_truths ?? null,
      reference_context: item.reference_context ?? null,
      relevant_ids: item.relevant_ids ?? null,
      reference_contexts: item.reference_contexts ?? null,
      question_key: item.question_key,
    }));
    rows.push(...(await db.insert(questions).values(batch).returning()));
  }
  return rows;
}

export async function getQuestionSet(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<QuestionSetRow | undefined> {
  const [row] = await db
    .select()
    .from(question_sets)
    .where(
      and(eq(question_sets.id, idParam(id)), eq(question_sets.workspace_id, workspaceId), live),
    );
  return row;
}

export async function listQuestionSets(db: Db, workspaceId: string): Promise<QuestionSetRow[]> {
  return db
    .select()
    .from(question_sets)
    .where(and(eq(question_sets.workspace_id, workspaceId), live))
    .orderBy(desc(question_sets.gmt_created));
}

export async function updateQuestionSet(
  db: Db,
  workspaceId: string,
  id: string,
  patch: { name?: string; description?: string | null; collection_id?: string | null },
): Promise<QuestionSetRow | undefined> {
  const [row] = await db
    .update(question_sets)
    .set({ ...patch, gmt_updated: new Date() })
    .where(
      and(eq(question_sets.id, idParam(id)), eq(question_sets.workspace_id, workspaceId), live),
    )
    .returning();
  return row;
}

/** Soft delete: evaluations keep their own copy of the questions. */
export async function deleteQuestionSet(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(question_sets)
    .set({ gmt_deleted: new Date() })
    .where(
      and(eq(question_sets.id, idParam(id)), eq(question_sets.workspace_id, workspaceId), live),
    )
    .returning({ id: question_sets.id });
  return rows.length > 0;
}

export async function listQuestions(
  db: Db,
  workspaceId: string,
  setId: string,
): Promise<QuestionRow[]> {
  return db
    .select()
    .from(questions)
    .where(
      and(
        eq(questions.question_set_id, idParam(setId)),
        eq(questions.workspace_id, workspaceId),
        isNull(questions.gmt_deleted),
      ),
    )
    .orderBy(asc(questions.position));
}

/**
 * Appends questions to a set, all or none: any whose normalized text is already in the set
 * rejects the whole batch with DuplicateQuestionsError. The set gets a new version.
 */
export async function addQuestions(
  db: Db,
  actor: Actor,
  setId: string,
  items: readonly NewQuestion[],
  change: Extract<QuestionSetChange, "appended" | "generated"> = "appended",
): Promise<QuestionRow[]> {
  const { workspaceId } = actor;
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    if (!(await lockQuestionSet(t, workspaceId, setId))) throw new QuestionSetNotFoundError(setId);
    const keys = items.map((item) => item.question_key);
    const existing =
      keys.length === 0
        ? []
        : await t
            .select({ key: questions.question_key })
            .from(questions)
            .where(
              and(
                eq(questions.question_set_id, idParam(setId)),
                isNull(questions.gmt_deleted),
                inArray(questions.question_key, keys),
              ),
            );
    const taken = new Set(existing.map((row) => row.key));
    const duplicates = items
      .map((item, index) => ({ index, question_text: item.question_text, key: item.question_key }))
      .filter((item) => taken.has(item.key));
    if (duplicates.length > 0) throw new DuplicateQuestionsError(duplicates);
    const rows = await insertQuestions(t, workspaceId, setId, await nextPosition(t, setId), items);
    await recountQuestionSet(t, setId);
    await recordQuestionSetVersion(t, actor, setId, change);
    return rows;
  });
}

async function nextPosition(db: Db, setId: string): Promise<number> {
  const [{ next } = { next: 0 }] = await db
    .select({ next: sql<number>`coalesce(max(${questions.position}) + 1, 0)::int` })
    .from(questions)
    .where(eq(questions.question_set_id, idParam(setId)));
  return next;
}

/** The set a live question of the workspace belongs to. */
async function setOfQuestion(db: Db, workspaceId: string, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ set: questions.question_set_id })
    .from(questions)
    .where(
      and(
        eq(questions.id, idParam(id)),
        eq(questions.workspace_id, workspaceId),
        isNull(questions.gmt_deleted),
      ),
    );
  return row?.set;
}

export interface QuestionChanges {
  removed?: readonly string[];
  updated?: ReadonlyArray<{ id: string; patch: Partial<NewQuestion> }>;
  added?: readonly NewQuestion[];
}

/**
 * Removes, edits and appends questions of one set in one transaction and one new version: all or
 * nothing. A question id not live in the set is a QuestionNotInSetError; a text another question
 * of the set has is PostgreSQL's unique violation (the caller names it).
 */
export async function changeQuestions(
  db: Db,
  actor: Actor,
  setId: string,
  changes: QuestionChanges,
  change: QuestionSetChange = "edited",
): Promise<QuestionRow[]> {
  const { workspaceId } = actor;
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    if (!(await lockQuestionSet(t, workspaceId, setId))) throw new QuestionSetNotFoundError(setId);
    const inSet = (id: string) =>
      and(
        eq(questions.id, idParam(id)),
        eq(questions.question_set_id, setId),
        isNull(questions.gmt_deleted),
      );
    const now = new Date();
    for (const id of changes.removed ?? []) {
      const done = await t
        .update(questions)
        .set({ gmt_deleted: now })
        .where(inSet(id))
        .returning({ id: questions.id });
      if (done.length === 0) throw new QuestionNotInSetError(id);
    }
    for (const { id, patch } of changes.updated ?? []) {
      const done = await t
        .update(questions)
        .set({ ...patch, gmt_updated: now })
        .where(inSet(id))
        .returning({ id: questions.id });
      if (done.length === 0) throw new QuestionNotInSetError(id);
    }
    const added = changes.added ?? [];
    if (added.length > 0) {
      // Named before the insert, so the error says which of the added ones repeat the set.
      const taken = await t
        .select({ key: questions.question_key })
        .from(questions)
        .where(
          and(
            eq(questions.question_set_id, setId),
            isNull(questions.gmt_deleted),
            inArray(
              questions.question_key,
              added.map((item) => item.question_key),
            ),
          ),
        );
      const keys = new Set(taken.map((row) => row.key));
      const duplicates = added
        .map((item, index) => ({ index, question_text: item.question_text }))
        .filter((_, index) => keys.has(added[index]?.question_key ?? ""));
      if (duplicates.length > 0) throw new DuplicateQuestionsError(duplicates);
    }
    const rows =
      added.length === 0
        ? []
        : await insertQuestions(t, workspaceId, setId, await nextPosition(t, setId), added);
    await recountQuestionSet(t, setId);
    await recordQuestionSetVersion(t, actor, setId, change);
    return rows;
  });
}

/**
 * Makes the set's live questions exactly `items`, in their order, as a new `restored` version:
 * rows of the same id come back (undeleted, their content set again), others are deleted.
 */
export async function restoreQuestions(
  db: Db,
  actor: Actor,
  setId: string,
  items: ReadonlyArray<NewQuestion & { id: string }>,
  restoredFrom: number,
): Promise<void> {
  const { workspaceId } = actor;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    if (!(await lockQuestionSet(t, workspaceId, setId))) throw new QuestionSetNotFoundError(setId);
    const now = new Date();
    await t
      .update(questions)
      .set({ gmt_deleted: now })
      .where(and(eq(questions.question_set_id, setId), isNull(questions.gmt_deleted)));
    // Positions after every earlier one, so the restored order never meets an old position.
    const first = await nextPosition(t, setId);
    for (let i = 0; i < items.length; i += 1000) {
      const batch = items.slice(i, i + 1000).map((item, j) => ({
        id: item.id,
        workspace_id: workspaceId,
        question_set_id: setId,
        position: first + i + j,
        question_type: item.question_type,
        question_text: item.question_text,
        ground_truth: item.ground_truth,
        ground_truths: item.ground_truths ?? null,
        reference_context: item.reference_context ?? null,
        relevant_ids: item.relevant_ids ?? null,
        reference_contexts: item.reference_contexts ?? null,
        question_key: item.question_key,
      }));
      await t
        .insert(questions)
        .values(batch)
        .onConflictDoUpdate({
          target: questions.id,
          set: {
            position: sql`excluded.position`,
            question_type: sql`excluded.question_type`,
            question_text: sql`excluded.question_text`,
            ground_truth: sql`excluded.ground_truth`,
            ground_truths: sql`excluded.ground_truths`,
            reference_context: sql`excluded.reference_context`,
            relevant_ids: sql`excluded.relevant_ids`,
            reference_contexts: sql`excluded.reference_contexts`,
            question_key: sql`excluded.question_key`,
            gmt_deleted: sql`null`,
            gmt_updated: now,
          },
          // Only this set's own rows: a version holds ids of its set alone.
          setWhere: eq(questions.question_set_id, setId),
        });
    }
    await recountQuestionSet(t, setId);
    await recordQuestionSetVersion(t, actor, setId, "restored", restoredFrom);
  });
}

async function recountQuestionSet(db: Db, setId: string): Promise<void> {
  await db
    .update(question_sets)
    .set({
      question_count: sql`(select count(*)::int from questions q
        where q.question_set_id = ${setId} and q.gmt_deleted is null)`,
      gmt_updated: new Date(),
    })
    .where(eq(question_sets.id, idParam(setId)));
}

/** Edits one question (a new version of its set); undefined when it is not the workspace's. */
export async function updateQuestion(
  db: Db,
  actor: Actor,
  id: string,
  patch: Partial<NewQuestion>,
): Promise<QuestionRow | undefined> {
  const setId = await setOfQuestion(db, actor.workspaceId, id);
  if (!setId) return undefined;
  try {
    await changeQuestions(db, actor, setId, { updated: [{ id, patch }] }, "edited");
  } catch (error) {
    if (error instanceof QuestionNotInSetError || error instanceof QuestionSetNotFoundError) {
      return undefined;
    }
    throw error;
  }
  const [row] = await db
    .select()
    .from(questions)
    .where(eq(questions.id, idParam(id)));
  return row;
}

/** Deletes one question (a new version of its set); false when it is not the workspace's. */
export async function deleteQuestion(db: Db, actor: Actor, id: string): Promise<boolean> {
  const setId = await setOfQuestion(db, actor.workspaceId, id);
  if (!setId) return false;
  try {
    await changeQuestions(db, actor, setId, { removed: [id] }, "deleted");
    return true;
  } catch (error) {
    if (error instanceof QuestionNotInSetError || error instanceof QuestionSetNotFoundError) {
      return false;
    }
    throw error;
  }
}
