// What each role in a workspace may do (issue 28): the one table the server's route table checks
// (access.ts) and the web app reads to hide what a role cannot do (web/src/api/session.ts). Pure
// and import-free: the web bundle loads this file as is.

/** The roles of a workspace member (store/schema.ts WORKSPACE_ROLES; access.ts checks they agree). */
export type Role = "owner" | "editor" | "annotator" | "viewer";

/**
 * - `member`: anyone in the workspace (who am I, which workspaces, switching);
 * - `read`: see runs, sets, verdicts, production answers;
 * - `label`: label the items of queues one is assigned to (verdicts hidden until saved);
 * - `write`: create, run, change, delete work;
 * - `manage`: members, invitations, the workspace itself.
 */
export type Access = "member" | "read" | "label" | "write" | "manage";

export const ROLE_ACCESS: Record<Role, readonly Access[]> = {
  owner: ["member", "read", "label", "write", "manage"],
  editor: ["member", "read", "label", "write"],
  // An annotator sees what they are asked to label and nothing else: no run, no verdict.
  annotator: ["member", "label"],
  viewer: ["member", "read"],
};

export function allows(role: Role, access: Access): boolean {
  return ROLE_ACCESS[role].includes(access);
}
