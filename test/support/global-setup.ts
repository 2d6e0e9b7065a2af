import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { migratePgliteDatabase } from "../../src/store/migrate.js";
import { startPostgresServer } from "./postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A real PostgreSQL server started for this test run. */
    postgresUrl: string;
    /** A migrated PGlite data directory dump: loading it takes ~0.5 s, initdb takes seconds. */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const [server, template] = await Promise.all([startPostgresServer(), buildPgliteTemplate()]);
  project.provide("postgresUrl", server.url);
  project.provide("pgliteTemplate", template.path);
  return () => {
    server.stop();
    rmSync(template.dir, { recursive: true, force: true });
  };
}

async function buildPgliteTemplate(): Promise<{ dir: string; path: string }> {
  const client = await PGlite.create();
  await migratePgliteDatabase(client);
  const dump = await client.dumpDataDir("none");
  await client.close();
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-pglite-"));
  const path = join(dir, "template.tar");
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  return { dir, path };
}
