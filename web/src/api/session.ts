import { useQuery } from "@tanstack/react-query";
import { api, must } from "./client";
import { type Access, allows } from "../../../src/server/role-access";
import type { WorkspaceRole } from "./types";

// Who is signed in, in which workspace, as what (issue 28 §1). Pages hide what the role cannot
// do; the server refuses it anyway (403 forbidden_role).

export const sessionKey = ["session"] as const;

export function useSession(enabled = true) {
  return useQuery({
    queryKey: sessionKey,
    queryFn: () => must(api.GET("/api/v1/session")),
    staleTime: 60_000,
    enabled,
  });
}

/** What a role may do: the server's own table (src/server/role-access.ts), checked by every route. */
export type Ability = Exclude<Access, "member">;

export function roleCan(role: WorkspaceRole, ability: Ability): boolean {
  return allows(role, ability);
}

/**
 * True when the signed-in person may do `ability` in the current workspace. While the session
 * loads, true: buttons do not flicker away for the many who may.
 */
export function useCan(ability: Ability): boolean {
  const session = useSession();
  return session.data ? roleCan(session.data.workspace.role, ability) : true;
}
