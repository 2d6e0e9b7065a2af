import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type pg from "pg";
import PgBoss from "pg-boss";
import { PgliteStartError } from "./damaged-home.js";

/** drizzle/ sits at the package root, two levels above both src/store and dist/store. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../drizzle", import.meta.url));

// drizzle's migrator takes no lock, and two processes booting at once both try to create its
// tables: serialize them with a session-level advisory lock on the migrating connection.
const LOCK_SQL = "select pg_advisory_lock(hashtext('ragjudge:migrations'))";
const UNLOCK_SQL = "select pg_advisory_unlock(hashtext('ragjudge:migrations'))";

/** The schema pg-boss keeps its jobs in; created with ours so every process finds it ready. */
export const JOBS_SCHEMA = "pgboss";
const JOBS_SCHEMA_EXISTS = `select 1 from information_schema.tables where table_schema = '${JOBS_SCHEMA}' and table_name = 'version'`;

/** pg-boss's own construction script (its migrations run on start when the version moves on). */
async function ensureJobsSchema(
  query: (text: string) => Promise<{ rows: unknown[] }>,
  exec: (text: string) => Promise<unknown>,
): Promise<void> {
  const { rows } = await query(JOBS_SCHEMA_EXISTS);
  if (rows.length === 0) await exec(PgBoss.getConstructionPlans(JOBS_SCHEMA));
}

/**
 * Creates a PGlite instance (in this thread; the store's thread, the template build and in-memory
 * stores all start it here) and migrates it unless `migrate` is false.
 */
export async function createPglite(options: {
  startParams?: string[];
  dataDir?: string;
  loadDataDir?: Blob;
  migrate?: boolean;
}): Promise<PGlite> {
  let client: PGlite;
  try {
    client = await PGlite.create({
      ...(options.startParams ? { startParams: options.startParams } : {}),
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  } catch (error) {
    // Told apart from a failed migration: only a database that does not start is moved aside.
    throw new PgliteStartError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  try {
    if (options.migrate !== false) await migratePgliteDatabase(client);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

export async function migratePgliteDatabase(client: PGlite): Promise<void> {
  await client.query(LOCK_SQL);
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
    await ensureJobsSchema(
      (text) => client.query(text),
      (text) => client.exec(text),
    );
  } finally {
    await client.query(UNLOCK_SQL);
  }
}

/** Runs on one dedicated connection, because the advisory lock belongs to a session. */
export async function migratePostgresDatabase(client: pg.Client): Promise<void> {
  await client.query("set client_min_messages = warning");
  await client.query(LOCK_SQL);
  try {
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
    await ensureJobsSchema(
      (text) => client.query(text),
      (text) => client.query(text),
    );
  } finally {
    await client.query(UNLOCK_SQL);
  }
}
