import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildPgliteTemplate } from "../../src/store/template.js";
import { ensureFreshBuild } from "./fresh-build.js";
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
  ensureFreshBuild();
  const [server, template] = await Promise.all([startPostgresServer(), buildTestTemplate()]);
  project.provide("postgresUrl", server.url);
  project.provide("pgliteTemplate", template.path);
  return () => {
    server.stop();
    rmSync(template.dir, { recursive: true, force: true });
  };
}

async function buildTestTemplate(): Promise<{ dir: string; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-pglite-"));
  const path = join(dir, "template.tar");
  await buildPgliteTemplate(path, "none");
  return { dir, path };
}
