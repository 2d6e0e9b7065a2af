import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import {
  QUESTION_SET_CHANGES,
  question_set_versions,
  question_sets,
  questions,
  users,
  type VersionQuestion,
} from "./schema.js";
import type { Actor } from "./workspaces.js";

// Versions of a question set (issue 28 §3): each change to its questions writes the whole list as
// the next version, in the change's own transaction, so the latest version is always the live list.

export type QuestionSetChange = (typeof QUESTION_SET_CHANGES)[number];
export { QUESTION_SET_CHANGES, type VersionQuestion };
export type QuestionSetVersionRow = typeof question_set_versions.$inferSelect;

/** A version without its questions, with the name of who made it. */
export type QuestionSetVersionSummary = Omit<QuestionSetVersionRow, "questions"> & {
  created_by_name: string | null;
};

/**
 * Writes the set's live questions as its next version, unless they are exactly its latest
 * version's (an edit that changed nothing). Call it inside the change's transaction, with the set's
 * row locked, so two changes cannot take one number.
 */
export async function recordQuestionSetVersion(
  db: Db,
  actor: Actor,
  setId: string,
  change: QuestionSetChange,
  restoredFrom: number | null = null,
): Promise<void> {
  const v = question_set_versions;
  await db.execute(sql`
    with latest as (
      select ${v.number} as number, ${v.questions} as questions from ${v}
      where ${v.question_set_id} = ${setId}
      order by ${v.number} desc limit 1
    ), snap as (
      select count(*)::int as n, coalesce(jsonb_agg(jsonb_build_object(
          'id', q.id, 'question_type', q.question_type, 'question_text', q.question_text,
          'ground_truth', q.ground_truth, 'ground_truths', q.ground_truths,
          'reference_context', q.reference_context, 'relevant_ids', q.relevant_ids,
          'reference_contexts', q.reference_contexts) order by q.position, q.id), '[]'::jsonb) as qs
      from ${questions} q where q.question_set_id = ${setId} and q.gmt_deleted is null
    )
    insert into ${v} (workspace_id, question_set_id, number, created_by, change, restored_from, question_count, questions)
    select ${actor.workspaceId}::uuid, ${setId}::uuid, coalesce((select number from latest), 0) + 1,
      ${actor.userId}::uuid, ${change}, ${restoredFrom}::int, snap.n, snap.qs
    from snap
    where not exists (select 1 from latest where latest.questions = snap.qs)`);
}

/** Locks a live set of the workspace for a change; false when there is none. */
export async function lockQuestionSet(
  db: Db,
  workspaceId: string,
  setId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: question_sets.id })
    .from(question_sets)
    .where(
      and(
        eq(question_sets.id, idParam(setId)),
        eq(question_sets.workspace_id, workspaceId),
        isNull(question_sets.gmt_deleted),
      ),
    )
    .for("update");
  return row !== undefined;
}

/** The set's versions, newest first, without their questions. */
export async function listQuestionSetVersions(
  db: Db,
  workspaceId: string,
  setId: string,
): Promise<QuestionSetVersionSummary[]> {
  const v = question_set_versions;
  return db
    .select({
      id: v.id,
      workspace_id: v.workspace_id,
      question_set_id: v.question_set_id,
      number: v.number,
      created_by: v.created_by,
      created_by_name: users.name,
      created_at: v.created_at,
      change: v.change,
      restored_from: v.restored_from,
      question_count: v.question_count,
    })
    .from(v)
    .leftJoin(users, eq(users.id, v.created_by))
    .where(and(eq(v.question_set_id, idParam(setId)), eq(v.workspace_id, workspaceId)))
    .orderBy(desc(v.number));
}

/** One version with its questions: by number, or the latest when `number` is undefined. */
export async function getQuestionSetVersion(
  db: Db,
  workspaceId: string,
  setId: string,
  number?: number,
): Promise<QuestionSetVersionRow | undefined> {
  const v = question_set_versions;
  const [row] = await db
    .select()
    .from(v)
    .where(
      and(
        eq(v.question_set_id, idParam(setId)),
        eq(v.workspace_id, workspaceId),
        number === undefined ? undefined : eq(v.number, number),
      ),
    )
    .orderBy(desc(v.number))
    .limit(1);
  return row;
}
