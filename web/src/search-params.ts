import { parseSearchWith, stringifySearchWith } from "@tanstack/react-router";

// How the router writes and reads the address bar's search values: as plain text
// (`?min=0.9&outcome=failed`), not TanStack Router's default of JSON, which quotes any text that
// JSON could read as something else (`?min=%220.9%22`). Numbers and true/false come back as such
// (each route's validateSearch takes both), everything else as text.

/**
 * Older links carry JSON-quoted text (`"0.9"`): the text inside the quotes. Anything else is not
 * quoted, and throwing leaves it as it was read.
 */
function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    const inner: unknown = JSON.parse(value);
    if (typeof inner === "string") return inner;
  }
  throw new Error("not a quoted value");
}

export const parseSearch = parseSearchWith(unquote);

/**
 * Plain values. Text that itself starts and ends with a quote (a search for `"exact words"`) is
 * the one thing written JSON-quoted, so that reading it back, which unquotes once, gives it whole.
 */
export const stringifySearch = stringifySearchWith(JSON.stringify, unquote);
