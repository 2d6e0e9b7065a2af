import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, inject } from "vitest";
import { openStore, queryRows, type Store } from "../../src/store/index.js";
import { createDatabase } from "./postgres-server.js";
import { borrowEmbeddedStore } from "./shared-embedded-store.js";

export const STORE_KINDS = ["pglite", "postgres"] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/**
 * Opens a migrated, empty store of either kind: PGlite in memory on its own thread (the path
 * `ragjudge` runs, proxy and all: store/pglite-thread.ts), or a fresh server database.
 *
 * The embedded one is the worker process's shared store when no other file holds it, emptied
 * for this caller (shared-embedded-store.ts: opening one costs ~1.5 s of CPU, emptying one
 * ~0.1 s); `close()` hands it back. A second one held at once is opened and closed for real. A
 * server database costs only a `create database`, so each caller gets its own.
 */
export async function openTestStore(kind: StoreKind): Promise<Store> {
  if (kind === "postgres") {
    return openStore({ databaseUrl: await createDatabase(inject("postgresUrl")) });
  }
  return borrowEmbeddedStore(() =>
    openStore({ memory: true, thread: true, loadDataDir: pgliteTemplate() }),
  );
}

let template: { path: string; blob: Blob } | undefined;

/**
 * The template new embedded homes start from (dist/pglite-template.tar.gz, a migrated, empty data
 * directory), read once per worker process: vitest runs many files in one process
 * (`isolate: false`), and a Blob is immutable, so every store opened there loads from the same
 * bytes. The type tells PGlite to gunzip it.
 */
export function pgliteTemplate(): Blob {
  const path = inject("pgliteTemplate");
  if (template?.path !== path) {
    template = { path, blob: new Blob([readFileSync(path)], { type: "application/gzip" }) };
  }
  return template.blob;
}

/** Empties every table of the public schema; migrations (schema `drizzle`) stay. */
export async function resetStore(store: Store): Promise<void> {
  const rows = await queryRows<{ tablename: string }>(
    store.db,
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const tables = rows.map((row) => `"${row.tablename}"`);
  if (tables.length > 0) {
    await store.db.execute(sql.raw(`truncate ${tables.join(", ")} restart identity cascade`));
  }
}

/**
 * Runs a suite once per storage mode, one store per file and mode, emptied before each test.
 * `use()` returns the current store.
 */
export function describeEachStore(
  name: string,
  suite: (use: () => Store, kind: StoreKind) => void,
) {
  describe.each(STORE_KINDS)(`${name} [%s]`, (kind) => {
    let store: Store | undefined;
    beforeAll(async () => {
      store = await openTestStore(kind);
    });
    afterAll(async () => {
      await store?.close();
    });
    beforeEach(async () => {
      if (store) await resetStore(store);
    });
    suite(() => {
      if (!store) throw new Error("store not open");
      return store;
    }, kind);
  });
}
