import { existsSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isNewDataDir } from "./create-home.js";
import { createPglite } from "./migrate.js";

/**
 * A migrated, empty PGlite data directory, built with the package (`npm run build`, which `npm ci`
 * runs). A new embedded home starts from it instead of running initdb: PGlite's initdb runs a
 * second PostgreSQL instance and its initdb module, which took 2.1 s and peaked near 870 MB of RSS;
 * loading this took 1.1 s and peaked near 360 MB. From src/store and dist/store alike, it is the
 * package's dist/.
 */
export const PGLITE_TEMPLATE = fileURLToPath(
  new URL("../../dist/pglite-template.tar.gz", import.meta.url),
);

/** Builds the template at `path` (written whole, then renamed into place). */
export async function buildPgliteTemplate(path: string = PGLITE_TEMPLATE): Promise<void> {
  const client = await createPglite({});
  try {
    const dump = await client.dumpDataDir("gzip");
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, path);
  } finally {
    await client.close();
  }
}

/**
 * The template's path for a data directory that does not exist yet (or is empty), when one was
 * built; undefined otherwise, and PGlite runs initdb as usual. An existing database is never touched.
 */
export function templateFor(
  dataDir: string,
  template: string = PGLITE_TEMPLATE,
): string | undefined {
  if (!isNewDataDir(dataDir) || !existsSync(template)) return undefined;
  return template;
}
