import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
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
