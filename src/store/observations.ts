import { and, asc, eq, gt, sql } from "drizzle-orm";
import { CollectionNotFoundError } from "./collections.js";
import { groupCommit } from "./group-commit.js";
import { isUuid } from "./ids.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { type RecordColumns, recordset } from "./recordset.js";
import { observational_data } from "./schema.js";

export type ObservationRow = typeof observational_data.$inferSelect;

/**
 * One cited chunk of an answer that passed: what the `memory` retrieval source searches. `node_id`
 * is the cited chunk's id, `score` the answer's score when it passed, in [0, 1].
 */
export type NewObservation = Pick<
  typeof observational_data.$inferInsert,
  "workspace_id" | "collection_id" | "query" | "answer" | "node_id" | "score"
>;

const OBSERVATION_COLUMNS = {
  workspace_id: observational_data.workspace_id,
  collection_id: observational_data.collection_id,
  query: observational_data.query,
  answer: observational_data.answer,
  node_id: observational_data.node_id,
  score: observational_data.score,
} satisfies RecordColumns;

/**
 * Appends observations in one statement and bumps each collection's `observation_count` (the
 * memory index's version). All or nothing: when any row names a collection that is not its
 * user's live collection, nothing is written and CollectionNotFoundError names that collection.
 */
export async function appendObservations(db: Db, rows: readonly NewObservation[]): Promise<number> {
  if (rows.length === 0) return 0;
  for (const row of rows) {
    if (!isUuid(row.collection_id)) throw new CollectionNotFoundError(row.collection_id);
    if (!Number.isFinite(row.score)) {
      throw new TypeError(`observation score must be a finite number, got ${row.score}`);
    }
  }
  const result = await queryRows<{ inserted: number; missing: string | null }>(
    db,
    sql`with input as (
          select * from ${recordset("r", OBSERVATION_COLUMNS, rows)}
        ),
        owned as (
          select i.* from input i
          join collections c on c.id = i.collection_id and c.workspace_id = i.workspace_id
                            and c.deleted_at is null
        ),
        ins as (
          insert into observational_data (workspace_id, collection_id, query, answer, node_id, score)
          select workspace_id, collection_id, query, answer, node_id, score from owned
          where (select count(*) from owned) = (select count(*) from input)
          returning collection_id
        ),
        bump as (
          update collections c set observation_count = c.observation_count + n.n
          from (select collection_id, count(*)::int as n from ins group by collection_id) n
          where c.id = n.collection_id
          returning 1
        )
        select (select count(*)::int from ins) as inserted,
               (select i.collection_id::text from input i
                where not exists (select 1 from owned o where o.collection_id = i.collection_id
                                                        and o.workspace_id = i.workspace_id)
                limit 1) as missing`,
  );
  const [outcome] = result;
  if (outcome?.missing) throw new CollectionNotFoundError(outcome.missing);
  return Number(outcome?.inserted ?? 0);
}

/** Pages through a collection's observations in insertion order, those after id `afterId`. */
export async function* observationPages(
  db: Db,
  workspaceId: string,
  collectionId: string,
  options: { pageSize?: number; afterId?: number } = {},
): AsyncGenerator<ObservationRow[]> {
  if (!isUuid(collectionId)) return;
  const pageSize = options.pageSize ?? 5_000;
  let after = options.afterId ?? 0;
  for (;;) {
    const page = await db
      .select()
      .from(observational_data)
      .where(
        and(
          eq(observational_data.collection_id, collectionId),
          eq(observational_data.workspace_id, workspaceId),
          gt(observational_data.id, after),
        ),
      )
      .orderBy(asc(observational_data.id))
      .limit(pageSize);
    if (page.length === 0) return;
    yield page;
    const last = page[page.length - 1];
    if (!last || page.length < pageSize) return;
    after = last.id;
  }
}

export async function listObservations(
  db: Db,
  workspaceId: string,
  collectionId: string,
): Promise<ObservationRow[]> {
  const all: ObservationRow[] = [];
  for await (const page of observationPages(db, workspaceId, collectionId)) all.push(...page);
  return all;
}

/**
 * appendObservations with the database and the user bound: the rows the RAG loops write. Asks
 * that pass while an earlier write is in the database share the next statement (group commit);
 * a batch that fails is retried ask by ask, so one ask's bad rows fail that ask alone.
 */
export function observationWriter(
  db: Db,
  workspaceId: string,
): (rows: ReadonlyArray<Omit<NewObservation, "workspace_id">>) => Promise<number> {
  const append = groupCommit(async (asks: NewObservation[][]) => {
    await appendObservations(db, asks.flat());
    // All or nothing: when the statement returns, every row of every ask was written.
    return asks.map((rows) => rows.length);
  });
  return async (rows) =>
    rows.length === 0 ? 0 : append(rows.map((row) => ({ ...row, workspace_id: workspaceId })));
}
