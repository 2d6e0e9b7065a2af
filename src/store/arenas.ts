import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { CodedMessage } from "../text/index.js";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { arenas } from "./schema.js";

export type ArenaRow = typeof arenas.$inferSelect;
type NewArena = typeof arenas.$inferInsert;
export type ArenaStatus = ArenaRow["status"];

export async function createArena(
  db: Db,
  workspaceId: string,
  input: Pick<
    NewArena,
    "name" | "question_set_id" | "question_set_version_id" | "question_set_version" | "config"
  >,
): Promise<ArenaRow> {
  const [row] = await db
    .insert(arenas)
    .values({ workspace_id: workspaceId, ...input, status: "PENDING" })
    .returning();
  if (!row) throw new Error("insert into arenas returned no row");
  return row;
}

/** The user's arena; another user's id reads as missing. */
export async function getArena(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<ArenaRow | undefined> {
  const [row] = await db
    .select()
    .from(arenas)
    .where(and(eq(arenas.id, idParam(id)), eq(arenas.workspace_id, workspaceId)));
  return row;
}

export async function listArenas(
  db: Db,
  workspaceId: string,
  options: { limit?: number; offset?: number } = {},
): Promise<ArenaRow[]> {
  return db
    .select()
    .from(arenas)
    .where(eq(arenas.workspace_id, workspaceId))
    .orderBy(desc(arenas.gmt_created))
    .limit(options.limit ?? 100)
    .offset(options.offset ?? 0);
}

/** Deletes the user's arena; returns the deleted row (another user's id deletes nothing). */
export async function deleteArena(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<ArenaRow | undefined> {
  const [row] = await db
    .delete(arenas)
    .where(and(eq(arenas.id, idParam(id)), eq(arenas.workspace_id, workspaceId)))
    .returning();
  return row;
}

/** An arena by id alone, for the worker (which acts for the arena's owner). */
export async function getArenaForWorker(db: Db, id: string): Promise<ArenaRow | undefined> {
  const [row] = await db
    .select()
    .from(arenas)
    .where(eq(arenas.id, idParam(id)));
  return row;
}

const OPEN = ["PENDING", "RUNNING"] as const;

/**
 * Marks an open arena as being compared now (RUNNING), or as still waiting (PENDING: its
 * contestants' runs have not all finished); the write also tells the sweeper it is looked after.
 */
export async function markArena(
  db: Db,
  id: string,
  status: "PENDING" | "RUNNING",
): Promise<ArenaRow | undefined> {
  const [row] = await db
    .update(arenas)
    .set({ status, gmt_updated: new Date() })
    .where(and(eq(arenas.id, idParam(id)), inArray(arenas.status, [...OPEN])))
    .returning();
  return row;
}

/**
 * Touches a PENDING arena (its runs still going) only if nobody has since it was read at
 * `seen`: of two jobs looking after one arena (a sweep re-sent one while the first waited in a busy
 * queue), one wins and goes on, the other stops. Compared to the millisecond, as a Date holds it.
 */
export async function touchPendingArena(
  db: Db,
  id: string,
  seen: Date,
): Promise<ArenaRow | undefined> {
  const [row] = await db
    .update(arenas)
    .set({ gmt_updated: new Date() })
    .where(
      and(
        eq(arenas.id, idParam(id)),
        eq(arenas.status, "PENDING"),
        sql`abs(extract(epoch from ${arenas.gmt_updated}) - ${seen.getTime() / 1000}) < 0.001`,
      ),
    )
    .returning();
  return row;
}

/** Moves an open arena to its end: results, or the reason it failed (a coded message). */
export async function finishArena(
  db: Db,
  id: string,
  outcome:
    | { status: "COMPLETED"; results: NonNullable<ArenaRow["results"]> }
    | { status: "FAILED"; reason: CodedMessage },
): Promise<ArenaRow | undefined> {
  const ending =
    outcome.status === "COMPLETED"
      ? outcome
      : // The English words for API users and the CLI; the code for the web app's language.
        {
          status: outcome.status,
          status_reason: outcome.reason.message,
          status_message: outcome.reason,
        };
  const [row] = await db
    .update(arenas)
    .set({ ...ending, gmt_updated: new Date() })
    .where(and(eq(arenas.id, idParam(id)), inArray(arenas.status, [...OPEN])))
    .returning();
  return row;
}

/**
 * PENDING arenas that the job queue computes (`config.compute = 'job'`) and that nobody has
 * looked at for `olderThanMs`: their job was lost (a crash between storing and enqueueing). Also
 * arenas stored before the queue compared them (no `compute`), left RUNNING for a read that no
 * longer computes.
 */
export async function strandedPendingArenas(db: Db, olderThanMs: number): Promise<string[]> {
  const rows = await db
    .select({ id: arenas.id })
    .from(arenas)
    .where(
      and(
        sql`((${arenas.status} = 'PENDING' and ${arenas.config}->>'compute' = 'job')
          or (${arenas.status} = 'RUNNING' and ${arenas.config}->>'compute' is null))`,
        sql`${arenas.gmt_updated} < now() - make_interval(secs => ${olderThanMs / 1000})`,
      ),
    )
    .limit(100);
  return rows.map((row) => row.id);
}
