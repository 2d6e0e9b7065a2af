import { inject } from "vitest";
import { createDatabase } from "../../support/postgres-server.js";

/** A fresh database on the PostgreSQL server the test run started. */
export function e2eDatabase(): Promise<string> {
  return createDatabase(inject("postgresUrl"), "e2e");
}
