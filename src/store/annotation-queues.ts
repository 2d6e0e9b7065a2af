import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import {
  annotation_items,
  annotation_labels,
  annotation_locks,
  annotation_queue_reviewers,
  annotation_queues,
  type JsonObject,
  users,
} from "./schema.js";

// Annotation queues (issue 28 §2): items several people label, handed out one slot at a time.
// A slot is held by a lock that lapses, so a reviewer who walks away frees it; a save checks the
// slots again under the item's row lock, so two reviewers saving the last slot at once end with
// one label stored and the other refused.

export type AnnotationQueueRow = typeof annotation_queues.$inferSelect;
export type AnnotationItemRow = typeof annotation_items.$inferSelect;
export type AnnotationLabelRow = typeof annotation_labels.$inferSelect;
export type NewAnnotationItem = Pick<
  typeof annotation_items.$inferInsert,
  "evaluation_result_id" | "subject" | "content" | "judge"
>;

/** Items written per statement when a queue is made. */
const ITEM_BATCH = 500;

/** A new queue with its reviewers and items, in one transaction. */
export async function insertAnnotationQueue(
  db: Db,
  input: {
    workspaceId: string;
    createdBy: string;
    name: string;
    kind: AnnotationQueueRow["kind"];
    source: JsonObject;
    rubric: JsonObject;
    reviewersPerItem: number;
    reviewers: readonly string[];
    items: readonly NewAnnotationItem[];
  },
): Promise<AnnotationQueueRow> {
  return db.transaction(async (tx) => {
    const [queue] = await tx
      .insert(annotation_queues)
      .values({
        workspace_id: input.workspaceId,
        name: input.name,
        kind: input.kind,
        source: input.source,
        rubric: input.rubric,
        reviewers_per_item: input.reviewersPerItem,
        created_by: input.createdBy,
      })
      .returning();
    if (!queue) throw new Error("the queue was not stored");
    if (input.reviewers.length > 0) {
      await tx
        .insert(annotation_queue_reviewers)
        .values(input.reviewers.map((user_id) => ({ queue_id: queue.id, user_id })));
    }
    for (let start = 0; start < input.items.length; start += ITEM_BATCH) {
      await tx.insert(annotation_items).values(
        input.items.slice(start, start + ITEM_BATCH).map((item, i) => ({
          ...item,
          workspace_id: input.workspaceId,
          queue_id: queue.id,
          position: start + i,
        })),
      );
    }
    return queue;
  });
}

export interface AnnotationQueueSummary extends AnnotationQueueRow {
  items: number;
  /** Items labelled by as many reviewers as the queue asks for. */
  complete: number;
  reviewers: { user_id: string; name: string }[];
}

/** A workspace's queues, newest first; with `reviewerId`, only those assigned to that user. */
export async function listAnnotationQueues(
  db: Db,
  workspaceId: string,
  options: { reviewerId?: string } = {},
): Promise<AnnotationQueueSummary[]> {
  const conditions = [eq(annotation_queues.workspace_id, workspaceId)];
  if (options.reviewerId) {
    conditions.push(
      sql`exists (select 1 from ${annotation_queue_reviewers} r
                  where r.queue_id = ${annotation_queues.id} and r.user_id = ${options.reviewerId})`,
    );
  }
  const rows = await db
    .select()
    .from(annotation_queues)
    .where(and(...conditions))
    .orderBy(desc(annotation_queues.created_at), asc(annotation_queues.id));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const counts = await queryRows<{ queue_id: string; items: number; complete: number }>(
    db,
    sql`select i.queue_id::text as queue_id, count(*)::int as items,
          count(*) filter (where (select count(distinct l.reviewer_id) from annotation_labels l
                                  where l.item_id = i.id) >= q.reviewers_per_item)::int as complete
        from annotation_items i join annotation_queues q on q.id = i.queue_id
        where i.queue_id = any(${`{${ids.join(",")}}`}::uuid[])
        group by i.queue_id`,
  );
  const reviewers = await db
    .select({
      queue_id: annotation_queue_reviewers.queue_id,
      user_id: annotation_queue_reviewers.user_id,
      name: users.name,
    })
    .from(annotation_queue_reviewers)
    .innerJoin(users, eq(users.id, annotation_queue_reviewers.user_id))
    .where(inArray(annotation_queue_reviewers.queue_id, ids))
    .orderBy(asc(users.name));
  const countOf = new Map(counts.map((row) => [row.queue_id, row]));
  return rows.map((row) => ({
    ...row,
    items: countOf.get(row.id)?.items ?? 0,
    complete: countOf.get(row.id)?.complete ?? 0,
    reviewers: reviewers
      .filter((r) => r.queue_id === row.id)
      .map(({ user_id, name }) => ({ user_id, name })),
  }));
}

/** One queue of the workspace, with its reviewers; undefined for another's or a malformed id. */
export async function getAnnotationQueue(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<(AnnotationQueueRow & { reviewers: { user_id: string; name: string }[] }) | undefined> {
  const [row] = await db
    .select()
    .from(annotation_queues)
    .where(
      and(eq(annotation_queues.id, idParam(id)), eq(annotation_queues.workspace_id, workspaceId)),
    );
  if (!row) return undefined;
  const reviewers = await db
    .select({ user_id: annotation_queue_reviewers.user_id, name: users.name })
    .from(annotation_queue_reviewers)
    .innerJoin(users, eq(users.id, annotation_queue_reviewers.user_id))
    .where(eq(annotation_queue_reviewers.queue_id, row.id))
    .orderBy(asc(users.name));
  return { ...row, reviewers };
}

export async function deleteAnnotationQueue(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<boolean> {
  const deleted = await db
    .delete(annotation_queues)
    .where(
      and(eq(annotation_queues.id, idParam(id)), eq(annotation_queues.workspace_id, workspaceId)),
    )
    .returning({ id: annotation_queues.id });
  return deleted.length > 0;
}

/** Every item of a queue, in order. */
export async function listAnnotationItems(db: Db, queueId: string): Promise<AnnotationItemRow[]> {
  return db
    .select()
    .from(annotation_items)
    .where(eq(annotation_items.queue_id, queueId))
    .orderBy(asc(annotation_items.position));
}

export async function getAnnotationItem(
  db: Db,
  queueId: string,
  itemId: string,
): Promise<AnnotationItemRow | undefined> {
  const [row] = await db
    .select()
    .from(annotation_items)
    .where(and(eq(annotation_items.id, idParam(itemId)), eq(annotation_items.queue_id, queueId)));
  return row;
}

/** Every label of a queue with the reviewer's name, in item order. */
export async function listAnnotationLabels(
  db: Db,
  queueId: string,
): Promise<(AnnotationLabelRow & { reviewer_name: string; position: number })[]> {
  const rows = await db
    .select({
      label: annotation_labels,
      reviewer_name: users.name,
      position: annotation_items.position,
    })
    .from(annotation_labels)
    .innerJoin(annotation_items, eq(annotation_items.id, annotation_labels.item_id))
    .innerJoin(users, eq(users.id, annotation_labels.reviewer_id))
    .where(eq(annotation_labels.queue_id, queueId))
    .orderBy(asc(annotation_items.position), asc(users.name), asc(annotation_labels.criterion));
  return rows.map((row) => ({
    ...row.label,
    reviewer_name: row.reviewer_name,
    position: row.position,
  }));
}

/**
 * Hands `reviewerId` an item of the queue: the one they already hold, else the first in order
 * they have not labelled whose labels and other reviewers' live locks leave a slot free, and locks
 * that slot until `lockMs` from now. Undefined when nothing is left for them.
 */
export async function claimAnnotationItem(
  db: Db,
  input: { queueId: string; reviewerId: string; perItem: number; lockMs: number },
): Promise<AnnotationItemRow | undefined> {
  const { queueId, reviewerId, perItem } = input;
  const expires = new Date(Date.now() + input.lockMs);
  return db.transaction(async (tx) => {
    const [held] = await tx
      .select({ item: annotation_items })
      .from(annotation_locks)
      .innerJoin(annotation_items, eq(annotation_items.id, annotation_locks.item_id))
      .where(
        and(
          eq(annotation_locks.queue_id, queueId),
          eq(annotation_locks.reviewer_id, reviewerId),
          sql`${annotation_locks.expires_at} > now()`,
          sql`not exists (select 1 from annotation_labels l
                          where l.item_id = ${annotation_items.id} and l.reviewer_id = ${reviewerId})`,
        ),
      )
      .orderBy(asc(annotation_items.position))
      .limit(1);
    let item = held?.item;
    if (!item) {
      // Skip locked: a row another reviewer is claiming right now goes to them, not to both.
      [item] = await tx
        .select()
        .from(annotation_items)
        .where(
          and(
            eq(annotation_items.queue_id, queueId),
            sql`not exists (select 1 from annotation_labels l
                            where l.item_id = ${annotation_items.id} and l.reviewer_id = ${reviewerId})`,
            sql`(select count(distinct l.reviewer_id) from annotation_labels l
                 where l.item_id = ${annotation_items.id})
                + (select count(*) from annotation_locks k
                   where k.item_id = ${annotation_items.id} and k.reviewer_id <> ${reviewerId}
                     and k.expires_at > now()
                     and not exists (select 1 from annotation_labels l2
                                     where l2.item_id = k.item_id and l2.reviewer_id = k.reviewer_id))
                < ${perItem}`,
          ),
        )
        .orderBy(asc(annotation_items.position))
        .limit(1)
        .for("update", { skipLocked: true });
    }
    if (!item) return undefined;
    await tx
      .insert(annotation_locks)
      .values({
        item_id: item.id,
        reviewer_id: reviewerId,
        workspace_id: item.workspace_id,
        queue_id: queueId,
        expires_at: expires,
      })
      .onConflictDoUpdate({
        target: [annotation_locks.item_id, annotation_locks.reviewer_id],
        set: { expires_at: expires },
      });
    return item;
  });
}

export interface NewAnnotationLabel {
  criterion: string;
  score: number | null;
  passed: boolean | null;
  choice: "a" | "b" | "tie" | null;
}

/**
 * Stores a reviewer's labels of one item (replacing theirs). Under the item's row lock: a reviewer
 * who already labelled it may change their labels; one who has not may take a slot only if the
 * labels of others leave one free and, unless they hold a live lock, the others' live locks too.
 * "full" when no slot is left for them, "not_found" for an item not in the queue.
 */
export async function saveAnnotationLabels(
  db: Db,
  input: {
    queueId: string;
    itemId: string;
    reviewerId: string;
    perItem: number;
    labels: readonly NewAnnotationLabel[];
    reason: string | null;
  },
): Promise<"saved" | "full" | "not_found"> {
  const { queueId, reviewerId } = input;
  return db.transaction(async (tx) => {
    const [item] = await tx
      .select({ id: annotation_items.id, workspace_id: annotation_items.workspace_id })
      .from(annotation_items)
      .where(
        and(eq(annotation_items.id, idParam(input.itemId)), eq(annotation_items.queue_id, queueId)),
      )
      .for("update");
    if (!item) return "not_found";
    const [state] = await queryRows<{
      mine: boolean;
      others: number;
      locks: number;
      held: boolean;
    }>(
      tx as unknown as Db,
      sql`select
            exists (select 1 from annotation_labels where item_id = ${item.id}
                    and reviewer_id = ${reviewerId}) as mine,
            (select count(distinct reviewer_id) from annotation_labels
             where item_id = ${item.id} and reviewer_id <> ${reviewerId})::int as others,
            (select count(*) from annotation_locks k where k.item_id = ${item.id}
               and k.reviewer_id <> ${reviewerId} and k.expires_at > now()
               and not exists (select 1 from annotation_labels l where l.item_id = k.item_id
                               and l.reviewer_id = k.reviewer_id))::int as locks,
            exists (select 1 from annotation_locks where item_id = ${item.id}
                    and reviewer_id = ${reviewerId} and expires_at > now()) as held`,
    );
    if (!state) return "not_found";
    if (!state.mine) {
      if (state.others >= input.perItem) return "full";
      if (!state.held && state.others + state.locks >= input.perItem) return "full";
    }
    await tx
      .insert(annotation_labels)
      .values(
        input.labels.map((label) => ({
          ...label,
          workspace_id: item.workspace_id,
          queue_id: queueId,
          item_id: item.id,
          reviewer_id: reviewerId,
          reason: input.reason,
        })),
      )
      .onConflictDoUpdate({
        target: [
          annotation_labels.item_id,
          annotation_labels.reviewer_id,
          annotation_labels.criterion,
        ],
        set: {
          score: sql`excluded.score`,
          passed: sql`excluded.passed`,
          choice: sql`excluded.choice`,
          reason: sql`excluded.reason`,
          created_at: sql`now()`,
        },
      });
    await tx
      .delete(annotation_locks)
      .where(
        and(eq(annotation_locks.item_id, item.id), eq(annotation_locks.reviewer_id, reviewerId)),
      );
    return "saved";
  });
}

/** Items each reviewer has labelled, and the queue's items labelled by how many reviewers. */
export async function annotationProgress(
  db: Db,
  queueId: string,
): Promise<{
  reviewers: { user_id: string; name: string; labelled: number }[];
  items: number;
  complete: number;
  slots_filled: number;
  perItem: number;
}> {
  const reviewers = await queryRows<{ user_id: string; name: string; labelled: number }>(
    db,
    sql`select u.id::text as user_id, u.name,
          (select count(distinct l.item_id) from annotation_labels l
           where l.queue_id = ${queueId} and l.reviewer_id = u.id)::int as labelled
        from users u
        where u.id in (select user_id from annotation_queue_reviewers where queue_id = ${queueId})
           or u.id in (select reviewer_id from annotation_labels where queue_id = ${queueId})
        order by u.name`,
  );
  const [totals] = await queryRows<{
    items: number;
    complete: number;
    slots: number;
    per_item: number;
  }>(
    db,
    sql`select count(*)::int as items,
          count(*) filter (where n >= q.reviewers_per_item)::int as complete,
          coalesce(sum(least(n, q.reviewers_per_item)), 0)::int as slots,
          max(q.reviewers_per_item)::int as per_item
        from (select i.id, i.queue_id, (select count(distinct l.reviewer_id)
                                        from annotation_labels l where l.item_id = i.id) as n
              from annotation_items i where i.queue_id = ${queueId}) x
          join annotation_queues q on q.id = x.queue_id`,
  );
  return {
    reviewers,
    items: totals?.items ?? 0,
    complete: totals?.complete ?? 0,
    slots_filled: totals?.slots ?? 0,
    perItem: totals?.per_item ?? 0,
  };
}

/** Sets an item's adjudicated label. */
export async function setAnnotationFinal(
  db: Db,
  input: { queueId: string; itemId: string; final: JsonObject; userId: string },
): Promise<AnnotationItemRow | undefined> {
  const [row] = await db
    .update(annotation_items)
    .set({ final: input.final, final_by: input.userId, final_at: new Date() })
    .where(
      and(
        eq(annotation_items.id, idParam(input.itemId)),
        eq(annotation_items.queue_id, input.queueId),
      ),
    )
    .returning();
  return row;
}

/** A reviewer's label of a run's result, read for calibration beside the adjudicated labels. */
export interface ReviewerResultLabel {
  result_id: string;
  reviewer_id: string;
  reviewer_name: string;
  rubric: JsonObject;
  criterion: string;
  score: number | null;
  passed: boolean | null;
}

/** Every queue label of a run's results, with the rubric of its queue. */
export async function reviewerLabelsOfRun(
  db: Db,
  workspaceId: string,
  evaluationId: string,
): Promise<ReviewerResultLabel[]> {
  return queryRows<ReviewerResultLabel>(
    db,
    sql`select i.evaluation_result_id::text as result_id, l.reviewer_id::text as reviewer_id,
          u.name as reviewer_name, q.rubric, l.criterion, l.score, l.passed
        from annotation_labels l
          join annotation_items i on i.id = l.item_id
          join annotation_queues q on q.id = i.queue_id
          join evaluation_results r on r.id = i.evaluation_result_id
          join users u on u.id = l.reviewer_id
        where q.workspace_id = ${workspaceId}::uuid and q.kind = 'run'
          and r.evaluation_id = ${idParam(evaluationId)}
        order by u.name, r.position`,
  );
}
