import { and, asc, eq, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { bots } from "./schema.js";

type StoredBot = typeof bots.$inferSelect;

/** A registered bot as its owner may read it: never the secret, only whether there is one. */
export type BotRow = Pick<StoredBot, "id" | "name" | "url" | "secret_header" | "gmt_created"> & {
  has_secret: boolean;
};

/** What a worker needs to call the bot: its URL and the credential for that URL. */
export type BotCredential = Pick<StoredBot, "url" | "secret_header" | "secret">;

export class BotNameTakenError extends Error {
  override readonly name = "BotNameTakenError";
  constructor(readonly botName: string) {
    super(`a bot named "${botName}" already exists`);
  }
}

// Every read names its columns, and these never include the secret: botCredential alone reads it.
const publicColumns = {
  id: bots.id,
  name: bots.name,
  url: bots.url,
  secret_header: bots.secret_header,
  has_secret: sql<boolean>`${bots.secret} is not null`,
  gmt_created: bots.gmt_created,
};

export async function createBot(
  db: Db,
  userId: string,
  input: { name: string; url: string; secret_header: string; secret: string | null },
): Promise<BotRow> {
  const [row] = await db
    .insert(bots)
    .values({ user_id: userId, ...input })
    .onConflictDoNothing({ target: [bots.user_id, bots.name] })
    .returning(publicColumns);
  if (!row) throw new BotNameTakenError(input.name);
  return row;
}

export async function listBots(db: Db, userId: string): Promise<BotRow[]> {
  return db
    .select(publicColumns)
    .from(bots)
    .where(eq(bots.user_id, userId))
    .orderBy(asc(bots.name));
}

/** The user's bot; another user's id, or a malformed one, is undefined (a 404). */
export async function getBot(db: Db, userId: string, id: string): Promise<BotRow | undefined> {
  const [row] = await db
    .select(publicColumns)
    .from(bots)
    .where(and(eq(bots.id, idParam(id)), eq(bots.user_id, userId)));
  return row;
}

export async function deleteBot(db: Db, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(bots)
    .where(and(eq(bots.id, idParam(id)), eq(bots.user_id, userId)))
    .returning({ id: bots.id });
  return deleted.length > 0;
}

/** The bot's URL and secret, for the worker running one of its owner's runs; scoped by owner. */
export async function botCredential(
  db: Db,
  userId: string,
  id: string,
): Promise<BotCredential | undefined> {
  const [row] = await db
    .select({ url: bots.url, secret_header: bots.secret_header, secret: bots.secret })
    .from(bots)
    .where(and(eq(bots.id, idParam(id)), eq(bots.user_id, userId)));
  return row;
}
