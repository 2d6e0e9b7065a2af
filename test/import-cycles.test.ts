// No import loop anywhere in the code (issue 27): a loop makes a module's values undefined while
// the loop loads, depending on which file is imported first. Type-only imports do not count (they
// vanish at run time); dynamic import() does not either, since it waits until after loading.

import { parseCircular, parseDependencyTree } from "dpdm";
import { expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url).pathname;

it("no module of src/ or web/src/ imports itself through others", async () => {
  const tree = await parseDependencyTree(["src/**/*.ts", "web/src/**/*.ts", "web/src/**/*.tsx"], {
    context: ROOT,
    cwd: ROOT,
    transform: true,
    skipDynamicImports: true,
    exclude: /node_modules/,
  });
  expect(Object.keys(tree).length).toBeGreaterThan(500);
  expect(parseCircular(tree, true).map((loop) => loop.join(" -> "))).toEqual([]);
}, 120_000); // about 6 s of CPU: every file is parsed by TypeScript
