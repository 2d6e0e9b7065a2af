import { z } from "zod";
import {
  createApiToken,
  createInvitation,
  createWorkspace,
  deleteWorkspace,
  findWorkspace,
  findWorkspaceOf,
  type Invitation,
  listAudit,
  listInvitations,
  listMembers,
  listWorkspacesOf,
  type MemberChangeRefusal,
  recordAudit,
  removeMember,
  renameWorkspace,
  revokeInvitation,
  setMemberRole,
} from "../../store/index.js";
import { actorOf, ownOrigin } from "../auth.js";
import { type App, errorJson, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import {
  AuditEventListSchema,
  CreatedInvitationSchema,
  CreatedTokenSchema,
  ErrorSchema,
  InvitationListSchema,
  InvitationRequestSchema,
  MemberListSchema,
  MemberRoleSchema,
  TokenRequestSchema,
  WorkspaceListSchema,
  WorkspaceNameSchema,
  WorkspaceSchema,
} from "../schemas/index.js";
import { IdParams, uuid } from "./params.js";

// Workspaces, their members and invitations, API tokens per workspace, and the audit trail
// (issue 28 §1). The request's workspace is the one the auth middleware resolved: a token's own,
// or the one the web app names in the `ragjudge-workspace` header.

const AuditQuerySchema = z.object({
  subject_type: z.string().max(40).optional(),
  subject_id: z.string().max(100).optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

const MemberParams = z.object({ userId: uuid });

const error = (description: string) => ({ description, schema: ErrorSchema });

export const workspaceApi = {
  list: defineRoute({
    method: "get",
    path: "/api/v1/workspaces",
    access: "member",
    tags: ["workspaces"],
    summary: "The workspaces you belong to, with your role in each",
    responses: {
      200: { description: "Yours", schema: WorkspaceListSchema },
    },
  }),
  create: defineRoute({
    method: "post",
    path: "/api/v1/workspaces",
    access: "member",
    tags: ["workspaces"],
    summary: "Create a shared workspace; you are its owner",
    body: WorkspaceNameSchema,
    responses: {
      201: { description: "The workspace", schema: WorkspaceSchema },
      400: error("A field that fails validation (named in issues[].path)"),
    },
  }),
  current: defineRoute({
    method: "get",
    path: "/api/v1/workspace",
    access: "member",
    tags: ["workspaces"],
    summary: "The workspace this request acts in, and your role there",
    responses: { 200: { description: "The workspace", schema: WorkspaceSchema } },
  }),
  rename: defineRoute({
    method: "patch",
    path: "/api/v1/workspace",
    access: "manage",
    tags: ["workspaces"],
    summary: "Rename the workspace",
    body: WorkspaceNameSchema,
    responses: {
      200: { description: "The workspace", schema: WorkspaceSchema },
      400: error("A field that fails validation (named in issues[].path)"),
    },
  }),
  delete: defineRoute({
    method: "delete",
    path: "/api/v1/workspace",
    access: "manage",
    tags: ["workspaces"],
    summary: "Delete the workspace and everything in it (not a personal one)",
    responses: {
      204: { description: "Deleted" },
      409: error("A personal workspace cannot be deleted"),
    },
  }),
  members: defineRoute({
    method: "get",
    path: "/api/v1/workspace/members",
    access: "member",
    tags: ["workspaces"],
    summary: "Who belongs to the workspace, and as what",
    responses: {
      200: { description: "The members", schema: MemberListSchema },
    },
  }),
  setRole: defineRoute({
    method: "patch",
    path: "/api/v1/workspace/members/:userId",
    access: "manage",
    tags: ["workspaces"],
    summary: "Change a member's role (a workspace always keeps an owner)",
    params: MemberParams,
    resource: "member",
    body: MemberRoleSchema,
    responses: {
      200: { description: "The members", schema: MemberListSchema },
      400: error("A field that fails validation (named in issues[].path)"),
      404: error("No such member"),
      409: error("The change would leave the workspace without an owner"),
    },
  }),
  removeMember: defineRoute({
    method: "delete",
    path: "/api/v1/workspace/members/:userId",
    access: "manage",
    tags: ["workspaces"],
    summary: "Remove a member: their access ends at once, their tokens here are revoked",
    params: MemberParams,
    resource: "member",
    responses: {
      204: { description: "Removed" },
      404: error("No such member"),
      409: error("The last owner, or a personal workspace's own user, cannot be removed"),
    },
  }),
  invitations: defineRoute({
    method: "get",
    path: "/api/v1/workspace/invitations",
    access: "manage",
    tags: ["workspaces"],
    summary: "Invitations not yet used",
    responses: {
      200: {
        description: "The invitations",
        schema: InvitationListSchema,
      },
    },
  }),
  invite: defineRoute({
    method: "post",
    path: "/api/v1/workspace/invitations",
    access: "manage",
    tags: ["workspaces"],
    summary: "Invite someone: a one-time link, shown once, that expires",
    body: InvitationRequestSchema,
    responses: {
      201: {
        description: "The invitation and its link, shown this once",
        schema: CreatedInvitationSchema,
      },
      400: error("A field that fails validation (named in issues[].path)"),
    },
  }),
  revokeInvitation: defineRoute({
    method: "delete",
    path: "/api/v1/workspace/invitations/:id",
    access: "manage",
    tags: ["workspaces"],
    summary: "Withdraw an invitation before it is used",
    params: IdParams,
    resource: "invitation",
    responses: { 204: { description: "Withdrawn" }, 404: error("No such invitation") },
  }),
  createToken: defineRoute({
    method: "post",
    path: "/api/v1/workspace/tokens",
    access: "member",
    tags: ["workspaces"],
    summary: "An API token for you in this workspace (shown once)",
    body: TokenRequestSchema,
    bodyOptional: true,
    responses: {
      201: { description: "The token, shown this once", schema: CreatedTokenSchema },
      400: error("A field that fails validation (named in issues[].path)"),
    },
  }),
  audit: defineRoute({
    method: "get",
    path: "/api/v1/audit",
    tags: ["workspaces"],
    summary: "Who started, paused, deleted or relabelled what, newest first",
    query: AuditQuerySchema,
    responses: {
      200: {
        description: "The events",
        schema: AuditEventListSchema,
      },
      400: error("A query parameter that fails validation"),
    },
  }),
};

function invitationJson(row: Invitation) {
  return {
    id: row.id,
    role: row.role,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
  };
}

const REFUSALS: Record<Exclude<MemberChangeRefusal, "not_found">, string> = {
  last_owner: "A workspace keeps at least one owner: make someone else owner first.",
  personal_owner: "A personal workspace stays its own user's: they cannot be removed or demoted.",
};

export function workspaceRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;

  const summaryOf = (userId: string, workspaceId: string) =>
    findWorkspaceOf(db, userId, workspaceId);

  const membersJson = async (workspaceId: string) => ({
    items: (await listMembers(db, workspaceId)).map((m) => ({
      ...m,
      joined_at: new Date(m.joined_at).toISOString(),
    })),
  });

  mountRoute(app, deps, workspaceApi.list, async (c) =>
    c.json({ items: await listWorkspacesOf(db, c.get("user").id) }, 200),
  );

  mountRoute(app, deps, workspaceApi.create, async (c, { body }) => {
    const row = await createWorkspace(db, c.get("user").id, body.name);
    return c.json(await summaryOf(c.get("user").id, row.id), 201);
  });

  mountRoute(app, deps, workspaceApi.current, async (c) =>
    c.json(await summaryOf(c.get("user").id, c.get("workspace").id), 200),
  );

  mountRoute(app, deps, workspaceApi.rename, async (c, { body }) => {
    await renameWorkspace(db, c.get("workspace").id, body.name);
    return c.json(await summaryOf(c.get("user").id, c.get("workspace").id), 200);
  });

  mountRoute(app, deps, workspaceApi.delete, async (c) => {
    const workspace = await findWorkspace(db, c.get("workspace").id);
    if (!(await deleteWorkspace(db, c.get("workspace").id))) {
      const message = `"${workspace?.name ?? ""}" is a personal workspace: it lives as long as its user.`;
      return errorJson(c, 409, "personal_workspace", message);
    }
    return c.body(null, 204);
  });

  mountRoute(app, deps, workspaceApi.members, async (c) =>
    c.json(await membersJson(c.get("workspace").id), 200),
  );

  mountRoute(app, deps, workspaceApi.setRole, async (c, { params, body }) => {
    const workspaceId = c.get("workspace").id;
    const refused = await setMemberRole(db, workspaceId, params.userId, body.role);
    if (refused === "not_found") {
      return errorJson(c, 404, "not_found", `No such member: ${params.userId}.`);
    }
    if (refused) return errorJson(c, 409, refused, REFUSALS[refused]);
    await recordAudit(db, {
      ...actorOf(c),
      action: "member.role",
      subjectType: "member",
      subjectId: params.userId,
      detail: { role: body.role },
    });
    return c.json(await membersJson(workspaceId), 200);
  });

  mountRoute(app, deps, workspaceApi.removeMember, async (c, { params }) => {
    const refused = await removeMember(db, c.get("workspace").id, params.userId);
    if (refused === "not_found") {
      return errorJson(c, 404, "not_found", `No such member: ${params.userId}.`);
    }
    if (refused) return errorJson(c, 409, refused, REFUSALS[refused]);
    await recordAudit(db, {
      ...actorOf(c),
      action: "member.remove",
      subjectType: "member",
      subjectId: params.userId,
    });
    return c.body(null, 204);
  });

  mountRoute(app, deps, workspaceApi.invitations, async (c) =>
    c.json({ items: (await listInvitations(db, c.get("workspace").id)).map(invitationJson) }, 200),
  );

  mountRoute(app, deps, workspaceApi.invite, async (c, { body }) => {
    const created = await createInvitation(db, {
      workspaceId: c.get("workspace").id,
      role: body.role,
      invitedBy: c.get("user").id,
      ttlMs: body.expires_in_hours * 3_600_000,
    });
    const url = new URL("/invite", ownOrigin(c, deps.origin));
    url.searchParams.set("code", created.code);
    await recordAudit(db, {
      ...actorOf(c),
      action: "invitation.create",
      subjectType: "invitation",
      subjectId: created.id,
      detail: { role: body.role },
    });
    return c.json({ ...invitationJson(created), url: url.toString() }, 201);
  });

  mountRoute(app, deps, workspaceApi.revokeInvitation, async (c, { params }) => {
    if (!(await revokeInvitation(db, c.get("workspace").id, params.id))) {
      return errorJson(c, 404, "not_found", `No such invitation: ${params.id}.`);
    }
    return c.body(null, 204);
  });

  mountRoute(app, deps, workspaceApi.createToken, async (c, { body }) => {
    const { workspaceId, userId } = actorOf(c);
    return c.json({ token: await createApiToken(db, userId, body.label, workspaceId) }, 201);
  });

  mountRoute(app, deps, workspaceApi.audit, async (c, { query }) => {
    const rows = await listAudit(db, c.get("workspace").id, {
      ...(query.subject_type ? { subjectType: query.subject_type } : {}),
      ...(query.subject_id ? { subjectId: query.subject_id } : {}),
      ...(query.before ? { before: query.before } : {}),
      limit: query.limit ?? 100,
    });
    return c.json(
      {
        items: rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() })),
      },
      200,
    );
  });
}
