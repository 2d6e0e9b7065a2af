import { useQuery } from "@tanstack/react-query";
import { api, must } from "./client";
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

/** What a role may do, as the server's route table decides it (src/server/access.ts). */
export type Ability = "read" | "label" | "write" | "manage";

const ABILITIES: Record<WorkspaceRole, readonly Ability[]> = {
  owner: ["read", "label", "write", "manage"],
  editor: ["read", "label", "write"],
  annotator: ["label"],
  viewer: ["read"],
};

export function roleCan(role: WorkspaceRole, ability: Ability): boolean {
  return ABILITIES[role].includes(ability);
}

/**
 * True when the signed-in person may do `ability` in the current workspace. While the session
 * loads, true: buttons do not flicker away for the many who may.
 */
export function useCan(ability: Ability): boolean {
  const session = useSession();
  return session.data ? roleCan(session.data.workspace.role, ability) : true;
}
