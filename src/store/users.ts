import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { api_tokens, users, workspace_members } from "./schema.js";
import { ensurePersonalWorkspace, type Membership } from "./workspaces.js";

export type User = typeof users.$inferSelect;

export const LOCAL_USER_NAME = "local";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The user of that name, made (with a personal workspace it owns) if there is none. */
export async function findOrCreateUser(db: Db, name: string): Promise<User> {
  await db.insert(users).values({ name }).onConflictDoNothing({ target: users.name });
  const [user] = await db.select().from(users).where(eq(users.name, name));
  if (!user) throw new Error(`user ${name} could not be created`);
  await ensurePersonalWorkspace(db, user);
  return user;
}

/** A new user of that name with their personal workspace; undefined when the name is taken. */
export async function createNamedUser(db: Db, name: string): Promise<User | undefined> {
  const [user] = await db
    .insert(users)
    .values({ name })
    .onConflictDoNothing({ target: users.name })
    .returning();
  if (user) await ensurePersonalWorkspace(db, user);
  return user;
}

/**
 * Creates an API token and returns its plaintext, which is never stored. A token acts for one user
 * in one workspace: the user's personal one unless another is named (whose membership the caller
 * has checked); it stops working the moment the user leaves that workspace.
 */
export async function createApiToken(
  db: Db,
  userId: string,
  label = "",
  workspaceId = userId,
): Promise<string> {
  const token = `rj_${randomBytes(24).toString("base64url")}`;
  await db.insert(api_tokens).values({
    user_id: userId,
    workspace_id: workspaceId,
    token_hash: hashToken(token),
    label,
  });
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

/**
 * The user a bearer token belongs to, the workspace it acts in with the user's role there, and what
 * the token may do. A token whose user is no longer a member of its workspace finds nobody. An
 * ingest key belongs to its workspace: it keeps working while the workspace exists.
 */
export async function findTokenCaller(
  db: Db,
  token: string,
): Promise<{ user: User; scope: TokenScope; workspace: Membership } | undefined> {
  const [row] = await db
    .select({
      user: users,
      scope: api_tokens.scope,
      workspaceId: api_tokens.workspace_id,
      role: workspace_members.role,
    })
    .from(api_tokens)
    .innerJoin(users, eq(users.id, api_tokens.user_id))
    .leftJoin(
      workspace_members,
      and(
        eq(workspace_members.workspace_id, api_tokens.workspace_id),
        eq(workspace_members.user_id, api_tokens.user_id),
      ),
    )
    .where(and(eq(api_tokens.token_hash, hashToken(token)), isNull(api_tokens.revoked_at)));
  if (!row) return undefined;
  if (row.scope === "ingest") {
    return { user: row.user, scope: row.scope, workspace: { id: row.workspaceId, role: "editor" } };
  }
  if (!row.role) return undefined;
  return { user: row.user, scope: row.scope, workspace: { id: row.workspaceId, role: row.role } };
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
  scope: { workspaceId: string; userId: string },
  label: string,
): Promise<IngestKey & { key: string }> {
  const key = `rji_${randomBytes(24).toString("base64url")}`;
  const [row] = await db
    .insert(api_tokens)
    .values({
      user_id: scope.userId,
      workspace_id: scope.workspaceId,
      token_hash: hashToken(key),
      label,
      scope: "ingest",
    })
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

/** A workspace's ingest keys, newest first, revoked ones included (without their keys). */
export async function listIngestKeys(db: Db, workspaceId: string): Promise<IngestKey[]> {
  return db
    .select(INGEST_KEY_FIELDS)
    .from(api_tokens)
    .where(and(eq(api_tokens.workspace_id, workspaceId), eq(api_tokens.scope, "ingest")))
    .orderBy(desc(api_tokens.created_at));
}

/** Revokes one of the workspace's ingest keys; undefined when it is not its own or not a key. */
export async function revokeIngestKey(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<IngestKey | undefined> {
  const [row] = await db
    .update(api_tokens)
    .set({ revoked_at: sql`coalesce(${api_tokens.revoked_at}, now())` })
    .where(
      and(
        eq(api_tokens.id, idParam(id)),
        eq(api_tokens.workspace_id, workspaceId),
        eq(api_tokens.scope, "ingest"),
      ),
    )
    .returning(INGEST_KEY_FIELDS);
  return row;
}
