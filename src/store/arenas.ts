import { and, desc, eq } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { arenas } from "./schema.js";

export type ArenaRow = typeof arenas.$inferSelect;
type NewArena = typeof arenas.$inferInsert;
export type ArenaStatus = ArenaRow["status"];

export async function createArena(
  db: Db,
  userId: string,
  input: Pick<NewArena, "name" | "question_set_id" | "config">,
): Promise<ArenaRow> {
  const [row] = await db
    .insert(arenas)
    .values({ user_id: userId, ...input, status: "RUNNING" })
    .returning();
  if (!row) throw new Error("insert into arenas returned no row");
  return row;
}

/** The user's arena; another user's id reads as missing. */
export async function getArena(db: Db, userId: string, id: string): Promise<ArenaRow | undefined> {
  const [row] = await db
    .select()
    .from(arenas)
    .where(and(eq(arenas.id, idParam(id)), eq(arenas.user_id, userId)));
  return row;
}

export async function listArenas(
  db: Db,
  userId: string,
  options: { limit?: number; offset?: number } = {},
): Promise<ArenaRow[]> {
  return db
    .select()
    .from(arenas)
    .where(eq(arenas.user_id, userId))
    .orderBy(desc(arenas.gmt_created))
    .limit(options.limit ?? 100)
    .offset(options.offset ?? 0);
}

/** Moves a RUNNING arena to its end: results, or the reason it failed. */
export async function finishArena(
  db: Db,
  id: string,
  outcome:
    | { status: "COMPLETED"; results: NonNullable<ArenaRow["results"]> }
    | { status: "FAILED"; status_reason: string },
): Promise<ArenaRow | undefined> {
  const [row] = await db
    .update(arenas)
    .set({ ...outcome, gmt_updated: new Date() })
    .where(and(eq(arenas.id, idParam(id)), eq(arenas.status, "RUNNING")))
    .returning();
  return row;
}
