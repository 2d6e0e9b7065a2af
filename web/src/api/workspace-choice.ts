// Which workspace the web app acts in (issue 28 §1): the one picked, kept in this browser, sent
// with every request as the `ragjudge-workspace` header. Without one, the server uses the user's
// personal workspace. An invitation lands on `/?workspace=<id>`, which picks it.

export const WORKSPACE_HEADER = "ragjudge-workspace";
const STORAGE_KEY = "ragjudge.workspace";
/** Set when the server no longer knew the workspace picked, read once by the top bar. */
const LOST_KEY = "ragjudge.workspaceLost";

export function chosenWorkspace(): string | undefined {
  return localStorage.getItem(STORAGE_KEY) ?? undefined;
}

/** Picks a workspace (undefined: the personal one) and reloads the app in it. */
export function switchWorkspace(id: string | undefined, to = "/evaluations/list") {
  if (id) localStorage.setItem(STORAGE_KEY, id);
  else localStorage.removeItem(STORAGE_KEY);
  // A full load: no page or cache can show the last workspace's data in the new one.
  window.location.assign(to);
}

/** Signing out forgets the workspace picked: the next person starts in their own. */
export function forgetWorkspaceChoice() {
  localStorage.removeItem(STORAGE_KEY);
}

/** `?workspace=<id>` in the address picks that workspace, and leaves the address. */
export function takeWorkspaceFromAddress(location: Location, history: History) {
  const url = new URL(location.href);
  const id = url.searchParams.get("workspace");
  if (!id) return;
  localStorage.setItem(STORAGE_KEY, id);
  url.searchParams.delete("workspace");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}

/**
 * The server answered that this user is not (or no longer) in the workspace picked: back to the
 * personal one, remembering to say so once.
 */
export function forgetLostWorkspace() {
  if (!chosenWorkspace()) return;
  localStorage.removeItem(STORAGE_KEY);
  sessionStorage.setItem(LOST_KEY, "1");
  window.location.reload();
}

/** True once after the app fell back to the personal workspace. */
export function takeLostWorkspaceNotice(): boolean {
  const lost = sessionStorage.getItem(LOST_KEY) === "1";
  sessionStorage.removeItem(LOST_KEY);
  return lost;
}
