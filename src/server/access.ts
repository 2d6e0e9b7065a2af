import type { Context, MiddlewareHandler } from "hono";
import type { WorkspaceRole } from "../store/index.js";
import type { Env } from "./http.js";

// What each role in a workspace may do (issue 28). Every route declares the one thing it needs;
// the route table checks it before the handler runs, so no route can forget.

/**
 * - `member`: anyone in the workspace (who am I, which workspaces, switching);
 * - `read`: see runs, sets, verdicts, production answers;
 * - `label`: label the items of queues one is assigned to (verdicts hidden until saved);
 * - `write`: create, run, change, delete work;
 * - `manage`: members, invitations, the workspace itself.
 */
export type Access = "member" | "read" | "label" | "write" | "manage";

export const ROLE_ACCESS: Record<WorkspaceRole, readonly Access[]> = {
  owner: ["member", "read", "label", "write", "manage"],
  editor: ["member", "read", "label", "write"],
  // An annotator sees what they are asked to label and nothing else: no run, no verdict.
  annotator: ["member", "label"],
  viewer: ["member", "read"],
};

/** A route's access: declared, else read for GET and write for anything that changes state. */
export function accessOf(spec: { method: string; access?: Access }): Access {
  return spec.access ?? (spec.method === "get" ? "read" : "write");
}

export function allows(role: WorkspaceRole, access: Access): boolean {
  return ROLE_ACCESS[role].includes(access);
}

const NEEDED: Record<Access, string> = {
  member: "any member",
  read: "owner, editor or viewer",
  label: "owner, editor or annotator",
  write: "owner or editor",
  manage: "owner",
};

/** 403 naming the caller's role and the roles that may. */
export function forbiddenRole(c: Context<Env>, access: Access) {
  const role = c.get("workspace").role;
  const message = `Your role in this workspace (${role}) cannot do this; it needs ${NEEDED[access]}.`;
  return c.json({ error: "forbidden_role", message, role, needs: access }, 403);
}

/**
 * The check itself, as middleware: the route table puts it before every guarded handler, and the
 * doors outside the table (OTLP's `POST /v1/traces`) use it too, so the role matrix is one rule.
 */
export function requireAccess(access: Access): MiddlewareHandler<Env> {
  return async (c, next) =>
    allows(c.get("workspace").role, access) ? next() : forbiddenRole(c, access);
}
