// Documented snippets are copied from examples that tests run: the first ```js block under a
// heading (of docs/integrations.md unless another page is named), its non-blank lines each found
// in the example file.

import { readFileSync } from "node:fs";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The snippet's lines under `heading` in the page, and the example's whole text. */
export function snippetAndExample(
  heading: string,
  examplePath: string,
  page = "docs/integrations.md",
): { lines: string[]; example: string } {
  const docs = readFileSync(`${ROOT}${page}`, "utf8");
  const section = docs.slice(docs.indexOf(heading));
  const snippet = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return {
    lines: snippet.split("\n").filter((line) => line.trim() !== ""),
    example: readFileSync(`${ROOT}${examplePath}`, "utf8"),
  };
}
