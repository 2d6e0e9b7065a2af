import { takeWorkspaceFromAddress } from "./workspace-choice";

// Imported first by main.tsx, before the router reads the address: `?workspace=<id>` (where an
// invitation lands) picks the workspace and leaves the address bar.
takeWorkspaceFromAddress(window.location, window.history);
