import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import {
  api_tokens,
  users,
  WORKSPACE_ROLES,
  workspace_invitations,
  workspace_members,
  workspaces,
} from "./schema.js";

// Workspaces and who belongs to them (issue 28). Every row of work is scoped by its workspace;
// a user's role in it decides what they may do (server/access.ts).

export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];
export { WORKSPACE_ROLES };

/** Who does a piece of work, and in which workspace (for rows that record who made them). */
export interface Actor {
  workspaceId: string;
  userId: string;
}

/** The workspace a request acts in, and the caller's role there. */
export interface Membership {
  id: string;
  role: WorkspaceRole;
}

export interface WorkspaceSummary {
  id: string;
  name: string;
  personal: boolean;
  role: WorkspaceRole;
  members: number;
}

/** A user's own workspace has the user's id: made with the account, owned by it, never left. */
export async function ensurePersonalWorkspace(
  db: Db,
  user: { id: string; name: string },
): Promise<void> {
  await db
    .insert(workspaces)
    .values({ id: user.id, name: user.name, personal: true })
    .onConflictDoNothing({ target: workspaces.id });
  await db
    .insert(workspace_members)
    .values({ workspace_id: user.id, user_id: user.id, role: "owner" })
    .onConflictDoNothing();
}

/** The user's role in the workspace, or undefined when they are not a member (or it is malformed). */
export async function findMembership(
  db: Db,
  userId: string,
  workspaceId: string,
): Promise<Membership | undefined> {
  const [row] = await db
    .select({ id: workspace_members.workspace_id, role: workspace_members.role })
    .from(workspace_members)
    .where(
      and(
        eq(workspace_members.user_id, userId),
        eq(workspace_members.workspace_id, idParam(workspaceId)),
      ),
    );
  return row;
}

/** The summary rows of the workspaces a user belongs to (narrowed by the caller's where). */
function summaryRows(db: Db, userId: string, workspaceId?: string) {
  const memberCount = db
    .select({ workspace_id: workspace_members.workspace_id, n: count().as("n") })
    .from(workspace_members)
    .where(
      workspaceId === undefined
        ? undefined
        : eq(workspace_members.workspace_id, idParam(workspaceId)),
    )
    .groupBy(workspace_members.workspace_id)
    .as("member_count");
  return db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      personal: workspaces.personal,
      role: workspace_members.role,
      members: memberCount.n,
    })
    .from(workspace_members)
    .innerJoin(workspaces, eq(workspaces.id, workspace_members.workspace_id))
    .innerJoin(memberCount, eq(memberCount.workspace_id, workspaces.id))
    .where(
      and(
        eq(workspace_members.user_id, userId),
        workspaceId === undefined ? undefined : eq(workspaces.id, idParam(workspaceId)),
      ),
    )
    .$dynamic();
}

/** The workspaces a user belongs to, personal first, then by name. */
export async function listWorkspacesOf(db: Db, userId: string): Promise<WorkspaceSummary[]> {
  const rows = await summaryRows(db, userId).orderBy(
    desc(workspaces.personal),
    asc(workspaces.name),
    asc(workspaces.id),
  );
  return rows.map((row) => ({ ...row, members: Number(row.members) }));
}

/** One workspace's summary as the user sees it; undefined when they are not a member. */
export async function findWorkspaceOf(
  db: Db,
  userId: string,
  workspaceId: string,
): Promise<WorkspaceSummary | undefined> {
  const [row] = await summaryRows(db, userId, workspaceId);
  return row && { ...row, members: Number(row.members) };
}

export async function findWorkspace(db: Db, workspaceId: string) {
  const [row] = await db
    .select()
    .from(workspaces)
    .where(eq(workspaces.id, idParam(workspaceId)));
  return row;
}

/** A new shared workspace, its maker its owner. */
export async function createWorkspace(db: Db, userId: string, name: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(workspaces).values({ name }).returning();
    if (!row) throw new Error("the workspace was not stored");
    await tx
      .insert(workspace_members)
      .values({ workspace_id: row.id, user_id: userId, role: "owner" });
    return row;
  });
}

export async function renameWorkspace(db: Db, workspaceId: string, name: string) {
  const [row] = await db
    .update(workspaces)
    .set({ name })
    .where(eq(workspaces.id, idParam(workspaceId)))
    .returning();
  return row;
}

/** Deletes a shared workspace and everything in it; a personal one is refused (false). */
export async function deleteWorkspace(db: Db, workspaceId: string): Promise<boolean> {
  const deleted = await db
    .delete(workspaces)
    .where(and(eq(workspaces.id, idParam(workspaceId)), eq(workspaces.personal, false)))
    .returning({ id: workspaces.id });
  return deleted.length > 0;
}

export interface MemberRow {
  user_id: string;
  name: string;
  role: WorkspaceRole;
  joined_at: Date;
}

export async function listMembers(db: Db, workspaceId: string): Promise<MemberRow[]> {
  return db
    .select({
      user_id: workspace_members.user_id,
      name: users.name,
      role: workspace_members.role,
      joined_at: workspace_members.created_at,
    })
    .from(workspace_members)
    .innerJoin(users, eq(users.id, workspace_members.user_id))
    .where(eq(workspace_members.workspace_id, workspaceId))
    .orderBy(asc(users.name));
}

/** Why a change to the members was refused. */
export type MemberChangeRefusal = "not_found" | "last_owner" | "personal_owner";

async function refusal(
  db: Pick<Db, "select">,
  workspaceId: string,
  userId: string,
): Promise<MemberChangeRefusal | undefined> {
  const [member] = await db
    .select({ role: workspace_members.role, personal: workspaces.personal })
    .from(workspace_members)
    .innerJoin(workspaces, eq(workspaces.id, workspace_members.workspace_id))
    .where(
      and(
        eq(workspace_members.workspace_id, workspaceId),
        eq(workspace_members.user_id, idParam(userId)),
      ),
    );
  if (!member) return "not_found";
  // A personal workspace is its user's: they stay its owner.
  if (member.personal && userId === workspaceId) return "personal_owner";
  if (member.role !== "owner") return undefined;
  const [owners] = await db
    .select({ n: count() })
    .from(workspace_members)
    .where(
      and(
        eq(workspace_members.workspace_id, workspaceId),
        eq(workspace_members.role, "owner"),
        ne(workspace_members.user_id, userId),
      ),
    );
  return Number(owners?.n ?? 0) === 0 ? "last_owner" : undefined;
}

/** Changes a member's role; a workspace always keeps an owner. */
export async function setMemberRole(
  db: Db,
  workspaceId: string,
  userId: string,
  role: WorkspaceRole,
): Promise<MemberChangeRefusal | undefined> {
  return db.transaction(async (tx) => {
    const refused = await refusal(tx, workspaceId, userId);
    if (refused === "not_found") return refused;
    if (refused && role !== "owner") return refused;
    await tx
      .update(workspace_members)
      .set({ role })
      .where(
        and(eq(workspace_members.workspace_id, workspaceId), eq(workspace_members.user_id, userId)),
      );
    return undefined;
  });
}

/**
 * Removes a member. Their access ends at once: every request checks membership, and their tokens
 * for this workspace are revoked.
 */
export async function removeMember(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<MemberChangeRefusal | undefined> {
  return db.transaction(async (tx) => {
    const refused = await refusal(tx, workspaceId, userId);
    if (refused) return refused;
    await tx
      .delete(workspace_members)
      .where(
        and(eq(workspace_members.workspace_id, workspaceId), eq(workspace_members.user_id, userId)),
      );
    await tx
      .update(api_tokens)
      .set({ revoked_at: sql`coalesce(${api_tokens.revoked_at}, now())` })
      .where(
        and(
          eq(api_tokens.workspace_id, workspaceId),
          eq(api_tokens.user_id, userId),
          eq(api_tokens.scope, "full"),
        ),
      );
    return undefined;
  });
}

const INVITATION_FIELDS = {
  id: workspace_invitations.id,
  role: workspace_invitations.role,
  created_at: workspace_invitations.created_at,
  expires_at: workspace_invitations.expires_at,
  used_at: workspace_invitations.used_at,
};

export type Invitation = {
  id: string;
  role: WorkspaceRole;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
};

function hashCode(code: string): string {
  return createHash("sha256").update(code).digest("hex");
}

/** A one-time invitation: the code is returned once and stored only as its hash. */
export async function createInvitation(
  db: Db,
  input: { workspaceId: string; role: WorkspaceRole; invitedBy: string; ttlMs: number },
): Promise<Invitation & { code: string }> {
  const code = randomBytes(24).toString("base64url");
  const [row] = await db
    .insert(workspace_invitations)
    .values({
      workspace_id: input.workspaceId,
      code_hash: hashCode(code),
      role: input.role,
      invited_by: input.invitedBy,
      expires_at: new Date(Date.now() + input.ttlMs),
    })
    .returning(INVITATION_FIELDS);
  if (!row) throw new Error("the invitation was not stored");
  return { ...row, code };
}

/** A workspace's invitations not yet used, newest first (expired ones too, marked by their date). */
export async function listInvitations(db: Db, workspaceId: string): Promise<Invitation[]> {
  return db
    .select(INVITATION_FIELDS)
    .from(workspace_invitations)
    .where(
      and(
        eq(workspace_invitations.workspace_id, workspaceId),
        isNull(workspace_invitations.used_at),
      ),
    )
    .orderBy(desc(workspace_invitations.created_at));
}

export async function revokeInvitation(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(workspace_invitations)
    .where(
      and(
        eq(workspace_invitations.workspace_id, workspaceId),
        eq(workspace_invitations.id, idParam(id)),
        isNull(workspace_invitations.used_at),
      ),
    )
    .returning({ id: workspace_invitations.id });
  return deleted.length > 0;
}

/** What an unused, unexpired invitation offers; undefined for any other code. */
export async function findInvitation(
  db: Db,
  code: string,
): Promise<{ workspace: string; role: WorkspaceRole; expires_at: Date } | undefined> {
  const [row] = await db
    .select({
      workspace: workspaces.name,
      role: workspace_invitations.role,
      expires_at: workspace_invitations.expires_at,
    })
    .from(workspace_invitations)
    .innerJoin(workspaces, eq(workspaces.id, workspace_invitations.workspace_id))
    .where(
      and(
        eq(workspace_invitations.code_hash, hashCode(code)),
        isNull(workspace_invitations.used_at),
        gt(workspace_invitations.expires_at, new Date()),
      ),
    );
  return row;
}

/**
 * Uses an invitation up and makes the user a member with its role, in one transaction: the update
 * that marks it used matches only an unused, unexpired code, so two tabs cannot both use it. A
 * member already there keeps the higher of the two roles. Undefined for a code that is not valid.
 */
export async function acceptInvitation(
  db: Db,
  code: string,
  userId: string,
): Promise<Membership | undefined> {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(workspace_invitations)
      .set({ used_at: new Date(), used_by: userId })
      .where(
        and(
          eq(workspace_invitations.code_hash, hashCode(code)),
          isNull(workspace_invitations.used_at),
          gt(workspace_invitations.expires_at, new Date()),
        ),
      )
      .returning({
        workspace_id: workspace_invitations.workspace_id,
        role: workspace_invitations.role,
      });
    if (!used) return undefined;
    const [existing] = await tx
      .select({ role: workspace_members.role })
      .from(workspace_members)
      .where(
        and(
          eq(workspace_members.workspace_id, used.workspace_id),
          eq(workspace_members.user_id, userId),
        ),
      );
    const rank = (role: WorkspaceRole) => WORKSPACE_ROLES.length - WORKSPACE_ROLES.indexOf(role);
    if (!existing) {
      await tx
        .insert(workspace_members)
        .values({ workspace_id: used.workspace_id, user_id: userId, role: used.role });
      return { id: used.workspace_id, role: used.role };
    }
    if (rank(used.role) > rank(existing.role)) {
      await tx
        .update(workspace_members)
        .set({ role: used.role })
        .where(
          and(
            eq(workspace_members.workspace_id, used.workspace_id),
            eq(workspace_members.user_id, userId),
          ),
        );
      return { id: used.workspace_id, role: used.role };
    }
    return { id: used.workspace_id, role: existing.role };
  });
}
