import type { TestProject } from "vitest/node";
import { PGLITE_TEMPLATE } from "../../src/store/template.js";
import { ensureFreshBuild } from "./fresh-build.js";
import { createMigratedTemplate, initCluster, startPostgresServer } from "./postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A real PostgreSQL server started for this test run, with a migrated template database. */
    postgresUrl: string;
    /** A new, never-started cluster for a test's own server to start from (startPostgresServer). */
    postgresCluster: string;
    /**
     * The migrated, empty PGlite data directory new embedded homes start from
     * (dist/pglite-template.tar.gz, rebuilt by the setup when a migration is newer).
     */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  ensureFreshBuild();
  const cluster = await initCluster();
  const server = await startPostgresServer(cluster.dir);
  await createMigratedTemplate(server.url);
  project.provide("postgresUrl", server.url);
  project.provide("postgresCluster", cluster.dir);
  project.provide("pgliteTemplate", PGLITE_TEMPLATE);
  return async () => {
    try {
      await server.stop();
    } finally {
      cluster.remove();
    }
  };
}
