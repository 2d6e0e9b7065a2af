import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { acquireDirLock } from "./lock.js";
import { createPglite, migratePostgresDatabase } from "./migrate.js";
import { type PgliteThread, startPgliteThread } from "./pglite-thread.js";
import { statementName } from "./raw-query.js";
import { createDataDir, isNewDataDir } from "./create-home.js";
import { templateFor } from "./template.js";
import * as schema from "./schema.js";
import { DamagedStoreError, moveDamagedDataDir, PgliteStartError } from "./damaged-home.js";

/** The database handle every repository takes; the same type for PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * Raw SQL on the store's connection(s), in pg-boss's `db` adapter shape: parameters go through the
 * extended protocol; a text without parameters may hold several statements.
 */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface Store {
  db: Db;
  sql: SqlExecutor;
  kind: "pglite" | "postgres";
  /** The data directory or the server URL with its password removed. */
  location: string;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** A PostgreSQL server; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Home of the embedded database (default `.ragjudge/` in the working directory). */
  home?: string;
  /** Embedded, in memory, no lock: for tests and benchmarks. */
  memory?: boolean;
  /**
   * In memory: a PGlite data-directory dump to start from (skips initdb, which takes seconds). A
   * new home on disk starts from `template` instead.
   */
  loadDataDir?: Blob | File;
  /** The template a new home starts from (default PGLITE_TEMPLATE); null: always run initdb. */
  template?: string | null;
  /** Run migrations on open (default true). */
  migrate?: boolean;
  /**
   * Embedded only: run PGlite on its own thread (default: yes for a database on disk, no in
   * memory). See pglite-thread.ts.
   */
  thread?: boolean;
  /**
   * Server only: told when a connection drops (a restart, a failover), at most once per burst. The
   * pool discards the connection and opens a new one for the next query; default: one line on
   * stderr.
   */
  onConnectionLost?: (error: Error) => void;
}

/** Reads the storage settings from the environment: DATABASE_URL and RAGJUDGE_HOME. */
export function storeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): StoreOptions {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    home: resolve(env.RAGJUDGE_HOME || join(process.cwd(), ".ragjudge")),
  };
}

export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://(unparseable url)";
  }
}

export async function openStore(options: StoreOptions = storeOptionsFromEnv()): Promise<Store> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}

/**
 * PGlite runs PostgreSQL inside this process's memory, so Postgres's server defaults are the
 * process's RSS: 128 MB of shared buffers alone. The data directory sits in the OS page cache
 * anyway; a small buffer pool costs little speed and keeps the process small.
 */
const PGLITE_SETTINGS = (
  process.env.RAGJUDGE_PGLITE_SETTINGS ?? "shared_buffers=16MB wal_buffers=1MB"
)
  .split(/\s+/)
  .filter(Boolean)
  .flatMap((setting) => ["-c", setting]);

async function openPglite(options: StoreOptions): Promise<Store> {
  let release = () => {};
  let dataDir: string | undefined;
  let existing = false;
  if (!options.memory) {
    const home = resolve(options.home ?? join(process.cwd(), ".ragjudge"));
    mkdirSync(home, { recursive: true });
    release = acquireDirLock(home);
    dataDir = join(home, "pgdata");
  }
  try {
    // A new home is created (the template unpacked, or initdb and migrations in a child process,
    // whose peak memory leaves with it); this process then opens it as an existing home.
    existing = dataDir !== undefined && !isNewDataDir(dataDir);
    if (dataDir && !existing) {
      const template =
        options.template === null ? undefined : templateFor(dataDir, options.template);
      await createDataDir({
        dataDir,
        startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
        ...(template ? { template } : {}),
      });
    }
    const loadDataDir = options.loadDataDir;
    const pgliteOptions = {
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
      migrate: options.migrate !== false,
      ...(dataDir ? { dataDir } : {}),
      ...(loadDataDir ? { loadDataDir } : {}),
    };
    const client =
      (options.thread ?? !options.memory)
        ? await startPgliteThread(pgliteOptions)
        : await createPglite(pgliteOptions);
    return {
      // The thread's proxy speaks the part of PGlite's API drizzle uses.
      db: drizzlePglite({ client: client as PGlite, schema }),
      sql: pgliteExecutor(client),
      kind: "pglite",
      location: dataDir ?? "memory://",
      async close() {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    try {
      if (dataDir && existing && PgliteStartError.isInstance(error)) {
        throw new DamagedStoreError(dataDir, moveDamagedDataDir(dataDir), error.message);
      }
      throw error;
    } finally {
      release();
    }
  }
}

function pgliteExecutor(client: PGlite | PgliteThread): SqlExecutor {
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) {
        return client.query<Record<string, unknown>>(text, values);
      }
      // PGlite's query() takes one statement; exec() takes many and returns each one's result.
      const results = await client.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
  };
}

/** Reports a lost connection once per 10 s: a restart drops every connection of the pool at once. */
function connectionLostReporter(report?: (error: Error) => void): (error: Error) => void {
  let quietUntil = 0;
  return (error) => {
    const now = Date.now();
    if (now < quietUntil) return;
    quietUntil = now + 10_000;
    if (report) report(error);
    else {
      const code = (error as { code?: string }).code;
      process.stderr.write(
        `ragjudge: lost a database connection (${code ? `${code} ` : ""}${error.message}); reconnecting as needed\n`,
      );
    }
  };
}

async function openPostgres(url: string, options: StoreOptions): Promise<Store> {
  if (options.migrate !== false) {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {}); // its query rejects too; the open fails with that error
    await client.connect();
    try {
      await migratePostgresDatabase(client);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // Without listeners, a connection the server terminates (57P01 on a restart) is an unhandled
  // 'error' event that kills the process. The pool drops the dead client either way; queries in
  // flight on it fail and their callers decide (a job is retried, a poll polls again).
  const lost = connectionLostReporter(options.onConnectionLost);
  pool.on("error", lost);
  pool.on("connect", (client) => client.on("error", lost));
  return {
    db: drizzlePg({ client: pool, schema }),
    sql: {
      executeSql: (text, values) =>
        // pg-boss's fetch, complete and heartbeat run thousands of times with one text: named.
        values && values.length > 0
          ? pool.query({ name: statementName(text), text, values })
          : pool.query(text),
    },
    kind: "postgres",
    location: redactDatabaseUrl(url),
    close: () => pool.end(),
  };
}
