import type { WorkspaceRole } from "../../api/types";

/** Every role, most powerful first: the order of the pickers. */
export const ROLES: readonly WorkspaceRole[] = ["owner", "editor", "annotator", "viewer"];
