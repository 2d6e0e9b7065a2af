import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { api_tokens, users } from "./schema.js";

export type User = typeof users.$inferSelect;

export const LOCAL_USER_NAME = "local";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function findOrCreateUser(db: Db, name: string): Promise<User> {
  await db.insert(users).values({ name }).onConflictDoNothing({ target: users.name });
  const [user] = await db.select().from(users).where(eq(users.name, name));
  if (!user) throw new Error(`user ${name} could not be created`);
  return user;
}

/** Creates an API token for a user and returns its plaintext, which is never stored. */
export async function createApiToken(db: Db, userId: string, label = ""): Promise<string> {
  const token = `rj_${randomBytes(24).toString("base64url")}`;
  await db.insert(api_tokens).values({ user_id: userId, token_hash: hashToken(token), label });
  return token;
}

export async function findUserByToken(db: Db, token: string): Promise<User | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(api_tokens)
    .innerJoin(users, eq(users.id, api_tokens.user_id))
    .where(and(eq(api_tokens.token_hash, hashToken(token)), isNull(api_tokens.revoked_at)));
  return row?.user;
}

export type TokenScope = (typeof api_tokens.$inferSelect)["scope"];

/** The user a bearer token belongs to, and what the token may do. */
export async function findTokenCaller(
  db: Db,
  token: string,
): Promise<{ user: User; scope: TokenScope } | undefined> {
  const [row] = await db
    .select({ user: users, scope: api_tokens.scope })
    .from(api_tokens)
    .innerJoin(users, eq(users.id, api_tokens.user_id))
    .where(and(eq(api_tokens.token_hash, hashToken(token)), isNull(api_tokens.revoked_at)));
  return row;
}

export interface IngestKey {
  id: string;
  label: string;
  created_at: Date;
  revoked_at: Date | null;
}

/**
 * A write-only key for sending production answers (issue 24): it can ingest and read nothing.
 * Its plaintext is returned once and never stored.
 */
export async function createIngestKey(
  db: Db,
  userId: string,
  label: string,
): Promise<IngestKey & { key: string }> {
  const key = `rji_${randomBytes(24).toString("base64url")}`;
  const [row] = await db
    .insert(api_tokens)
    .values({ user_id: userId, token_hash: hashToken(key), label, scope: "ingest" })
    .returning({
      id: api_tokens.id,
      label: api_tokens.label,
      created_at: api_tokens.created_at,
      revoked_at: api_tokens.revoked_at,
    });
  if (!row) throw new Error("the ingest key was not stored");
  return { ...row, key };
}

const INGEST_KEY_FIELDS = {
  id: api_tokens.id,
  label: api_tokens.label,
  created_at: api_tokens.created_at,
  revoked_at: api_tokens.revoked_at,
};

/** A user's ingest keys, newest first, revoked ones included (without their keys). */
export async function listIngestKeys(db: Db, userId: string): Promise<IngestKey[]> {
  return db
    .select(INGEST_KEY_FIELDS)
    .from(api_tokens)
    .where(and(eq(api_tokens.user_id, userId), eq(api_tokens.scope, "ingest")))
    .orderBy(desc(api_tokens.created_at));
}

/** Revokes one of the user's ingest keys; undefined when it is not theirs or not a key. */
export async function revokeIngestKey(
  db: Db,
  userId: string,
  id: string,
): Promise<IngestKey | undefined> {
  const [row] = await db
    .update(api_tokens)
    .set({ revoked_at: sql`coalesce(${api_tokens.revoked_at}, now())` })
    .where(
      and(
        eq(api_tokens.id, idParam(id)),
        eq(api_tokens.user_id, userId),
        eq(api_tokens.scope, "ingest"),
      ),
    )
    .returning(INGEST_KEY_FIELDS);
  return row;
}
