import type { Context, MiddlewareHandler } from "hono";
import type { WorkspaceRole } from "../store/index.js";
import type { Env } from "./http.js";
import { type Access, allows, type Role } from "./role-access.js";

export { type Access, allows, ROLE_ACCESS } from "./role-access.js";

// What each role in a workspace may do (issue 28, the table in role-access.ts). Every route declares
// the one thing it needs; the route table checks it before the handler runs, so no route can forget.

// The table itself is shared with the web app (role-access.ts); a role added to the store's list
// and not to the table fails to compile here.
const _rolesAgree: [WorkspaceRole, Role] extends [Role, WorkspaceRole] ? true : never = true;
void _rolesAgree;

/** A route's access: declared, else read for GET and write for anything that changes state. */
export function accessOf(spec: { method: string; access?: Access }): Access {
  return spec.access ?? (spec.method === "get" ? "read" : "write");
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
