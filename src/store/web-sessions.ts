import { randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "./open.js";
import { login_codes, users, web_sessions } from "./schema.js";
import { hashToken, type User } from "./users.js";

// Browser sessions for the web app. Only hashes are stored: a copy of the database gives no one a
// way in. Codes and sessions carry their expiry; an expired one reads as missing.

export const LOGIN_CODE_TTL_MS = 15 * 60_000;
export const WEB_SESSION_TTL_MS = 7 * 24 * 3_600_000;

export interface WebSession {
  /** The cookie's value; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

const secret = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;

/** A one-time code for a login URL; its plaintext is returned once and never stored. */
export async function createLoginCode(
  db: Db,
  userId: string,
  ttlMs = LOGIN_CODE_TTL_MS,
): Promise<string> {
  const code = secret("lc_");
  // Expired codes are useless: sweeping them here keeps the table at a handful of rows.
  await db.delete(login_codes).where(lt(login_codes.expires_at, new Date()));
  await db.insert(login_codes).values({
    code_hash: hashToken(code),
    user_id: userId,
    expires_at: new Date(Date.now() + ttlMs),
  });
  return code;
}

/**
 * Uses a login code up and starts its user's session, in one transaction: the delete that reads
 * the code is the one that consumes it, so two requests racing with one code cannot both succeed,
 * and a session that cannot be written leaves the code unspent. Unknown, used and expired codes
 * give undefined.
 */
export async function redeemLoginCode(
  db: Db,
  code: string,
  ttlMs = WEB_SESSION_TTL_MS,
): Promise<{ userId: string; session: WebSession } | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(login_codes)
      .where(
        and(eq(login_codes.code_hash, hashToken(code)), gt(login_codes.expires_at, new Date())),
      )
      .returning({ user_id: login_codes.user_id });
    if (!row) return undefined;
    const session = { token: secret("rs_"), expiresAt: new Date(Date.now() + ttlMs) };
    await tx.delete(web_sessions).where(lt(web_sessions.expires_at, new Date()));
    await tx.insert(web_sessions).values({
      user_id: row.user_id,
      token_hash: hashToken(session.token),
      expires_at: session.expiresAt,
    });
    return { userId: row.user_id, session };
  });
}

export async function createWebSession(
  db: Db,
  userId: string,
  ttlMs = WEB_SESSION_TTL_MS,
): Promise<WebSession> {
  const token = secret("rs_");
  const expiresAt = new Date(Date.now() + ttlMs);
  await db.delete(web_sessions).where(lt(web_sessions.expires_at, new Date()));
  await db
    .insert(web_sessions)
    .values({ user_id: userId, token_hash: hashToken(token), expires_at: expiresAt });
  return { token, expiresAt };
}

export async function findUserBySession(
  db: Db,
  token: string,
): Promise<{ user: User; expiresAt: Date } | undefined> {
  const [row] = await db
    .select({ user: users, expiresAt: web_sessions.expires_at })
    .from(web_sessions)
    .innerJoin(users, eq(users.id, web_sessions.user_id))
    .where(
      and(eq(web_sessions.token_hash, hashToken(token)), gt(web_sessions.expires_at, new Date())),
    );
  return row;
}

export async function deleteWebSession(db: Db, token: string): Promise<void> {
  await db.delete(web_sessions).where(eq(web_sessions.token_hash, hashToken(token)));
}
