import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type pg from "pg";

/** drizzle/ sits at the package root, two levels above both src/store and dist/store. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../drizzle", import.meta.url));

// drizzle's migrator takes no lock, and two processes booting at once both try to create its
// tables: serialize them with a session-level advisory lock on the migrating connection.
const LOCK_SQL = "select pg_advisory_lock(hashtext('ragjudge:migrations'))";
const UNLOCK_SQL = "select pg_advisory_unlock(hashtext('ragjudge:migrations'))";

export async function migratePgliteDatabase(client: PGlite): Promise<void> {
  await client.query(LOCK_SQL);
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
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
  } finally {
    await client.query(UNLOCK_SQL);
  }
}
