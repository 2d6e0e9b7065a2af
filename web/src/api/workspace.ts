// The workspace the web app acts in (issue 28): kept in the browser and sent with every API call
// as the `ragjudge-workspace` header; absent, the server uses the person's own workspace.

const STORAGE_KEY = "ragjudge.workspace";
export const WORKSPACE_HEADER = "ragjudge-workspace";

export function chosenWorkspace(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function chooseWorkspace(id: string | null): void {
  if (id) localStorage.setItem(STORAGE_KEY, id);
  else localStorage.removeItem(STORAGE_KEY);
}
