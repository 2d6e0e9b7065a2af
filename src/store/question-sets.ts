import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { question_sets, questions } from "./schema.js";

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
  override readonly name = "QuestionSetNotFoundError";
  constructor(readonly id: string) {
    super(`question set ${id} not found`);
  }
}

/** Questions whose normalized text is already in the set; nothing was written. */
export class DuplicateQuestionsError extends Error {
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
    .where(and(eq(question_sets.id, idParam(id)), eq(question_sets.workspace_id, workspaceId), live));
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
    .where(and(eq(question_sets.id, idParam(id)), eq(question_sets.workspace_id, workspaceId), live))
    .returning();
  return row;
}

/** Soft delete: evaluations keep their own copy of the questions. */
export async function deleteQuestionSet(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(question_sets)
    .set({ gmt_deleted: new Date() })
    .where(and(eq(question_sets.id, idParam(id)), eq(question_sets.workspace_id, workspaceId), live))
    .returning({ id: question_sets.id });
  return rows.length > 0;
}

export async function listQuestions(db: Db, workspaceId: string, setId: string): Promise<QuestionRow[]> {
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
 * rejects the whole batch with DuplicateQuestionsError.
 */
export async function addQuestions(
  db: Db,
  workspaceId: string,
  setId: string,
  items: readonly NewQuestion[],
): Promise<QuestionRow[]> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [set] = await t
      .select()
      .from(question_sets)
      .where(and(eq(question_sets.id, idParam(setId)), eq(question_sets.workspace_id, workspaceId), live))
      .for("update");
    if (!set) throw new QuestionSetNotFoundError(setId);
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
    const [{ next } = { next: 0 }] = await t
      .select({ next: sql<number>`coalesce(max(${questions.position}) + 1, 0)::int` })
      .from(questions)
      .where(eq(questions.question_set_id, idParam(setId)));
    const rows = await insertQuestions(t, workspaceId, setId, next, items);
    await recountQuestionSet(t, setId);
    return rows;
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

export async function updateQuestion(
  db: Db,
  workspaceId: string,
  id: string,
  patch: Partial<NewQuestion>,
): Promise<QuestionRow | undefined> {
  const [row] = await db
    .update(questions)
    .set({ ...patch, gmt_updated: new Date() })
    .where(
      and(
        eq(questions.id, idParam(id)),
        eq(questions.workspace_id, workspaceId),
        isNull(questions.gmt_deleted),
      ),
    )
    .returning();
  return row;
}

export async function deleteQuestion(db: Db, workspaceId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [row] = await t
      .update(questions)
      .set({ gmt_deleted: new Date() })
      .where(
        and(
          eq(questions.id, idParam(id)),
          eq(questions.workspace_id, workspaceId),
          isNull(questions.gmt_deleted),
        ),
      )
      .returning({ set: questions.question_set_id });
    if (!row) return false;
    await recountQuestionSet(t, row.set);
    return true;
  });
}
