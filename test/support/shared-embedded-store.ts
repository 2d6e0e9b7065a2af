import { drizzle } from "drizzle-orm/pglite";
import type { PGlite } from "@electric-sql/pglite";
import PgBoss from "pg-boss";
import type { PgliteThread, PgliteTransaction } from "../../src/store/pglite-thread.js";
import * as schema from "../../src/store/schema.js";
import { JOBS_SCHEMA, type Store } from "../../src/store/index.js";

/**
 * One embedded store per vitest worker process, lent to one test file at a time.
 *
 * Opening an in-memory PGlite on its thread from the test template costs about 1.5 s of CPU and
 * closing it 0.2 s (measured: 1.45-1.53 s and 0.17-0.23 s, 3 opens in one process), paid by ~35
 * files each. Emptying a used one costs 0.06-0.24 s. The 35 files that use a test store went from
 * 166-193 s of CPU to 100-110 s with it (3 workers, 2 cores). With `isolate: false` a worker runs
 * many files one after another and keeps this module's state, so the store outlives the file that
 * borrowed it; it is emptied before each loan, not after, so nothing a file leaves behind when it
 * returns the store can reach the next one.
 */

interface Shared {
  store: Store;
  lent: boolean;
}

let shared: Shared | undefined;
let opening = false;
/** The schemas of a store just opened from the template: what "empty and migrated" looks like. */
let pristineSchema: string | undefined;

/** How long emptying may take before the store is judged stuck (an open transaction, say). */
const CLEAN_TIMEOUT_MS = 10_000;

/**
 * An empty, migrated embedded store: the worker's shared one when it is free, else a fresh one
 * from `openFresh` (really closed by its `close()`). The shared store's `close()` hands it back;
 * the loan then refuses work, as a closed store does.
 */
export async function borrowEmbeddedStore(
  openFresh: () => Promise<Store>,
  options: { cleanTimeoutMs?: number } = {},
): Promise<Store> {
  const entry = shared;
  // Already lent (a file holding two at once) or being opened: this caller gets its own.
  if (entry?.lent || opening) return openFresh();
  if (entry) {
    entry.lent = true;
    if (await cleanForNextLoan(entry.store, options.cleanTimeoutMs ?? CLEAN_TIMEOUT_MS)) {
      return loan(entry);
    }
    // Stuck or changed beyond emptying: let it go (without waiting on a stuck thread).
    if (shared === entry) shared = undefined;
    void entry.store.close().catch(() => {});
  }
  opening = true;
  try {
    const store = await openFresh();
    try {
      pristineSchema ??= await schemaFingerprint(store);
    } catch (error) {
      await store.close();
      throw error;
    }
    const fresh: Shared = { store, lent: true };
    shared = fresh;
    return loan(fresh);
  } finally {
    opening = false;
  }
}

/**
 * Puts the store back in the state a fresh one has, within `timeoutMs`; false when it
 * cannot. Besides the rows of every table: pg-boss's schema (queues made with other options
 * become partitions and rows there, jobs of the last file would be fetched by the next), every
 * schema a test created, and the session (settings, prepared statements, advisory locks, LISTEN,
 * temporary tables). Whatever else differs from a fresh store's catalog (a constraint a test
 * added and did not drop) fails the comparison.
 */
async function cleanForNextLoan(store: Store, timeoutMs: number): Promise<boolean> {
  const run = async (text: string) => (await store.sql.executeSql(text)).rows;
  const clean = async () => {
    // Also the health check: it fails inside a transaction a test left open.
    await run("discard all");
    const tables = await run("select tablename from pg_tables where schemaname = 'public'");
    const schemas = await run(
      `select nspname from pg_namespace where nspname not in ('public', 'drizzle', 'information_schema')
        and nspname not like 'pg\\_%'`,
    );
    const truncate = `truncate ${tables.map((t) => `"${String(t.tablename)}"`).join(", ")} restart identity cascade`;
    const drops = schemas.map((s) => `drop schema "${String(s.nspname)}" cascade`);
    await run([truncate, ...drops].join(";\n"));
    await run(PgBoss.getConstructionPlans(JOBS_SCHEMA));
    return (await schemaFingerprint(store)) === pristineSchema;
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([clean().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A digest of every schema object outside the system catalogs: schemas, relations, columns,
 * constraints, functions, user triggers and types. Internal triggers are left out: their names
 * carry oids, new ones each time pg-boss's schema is rebuilt.
 */
async function schemaFingerprint(store: Store): Promise<string> {
  const { rows } = await store.sql.executeSql(`
    with ns as (
      select oid, nspname from pg_namespace
      where nspname not in ('pg_catalog', 'information_schema')
        and nspname not like 'pg\\_toast%' and nspname not like 'pg\\_temp%'
    )
    select md5(string_agg(item, ',' order by item)) as digest from (
      select 'ns:' || nspname as item from ns
      union all
      select 'rel:' || n.nspname || '.' || c.relname || ':' || c.relkind::text
        from pg_class c join ns n on n.oid = c.relnamespace
      union all
      select 'col:' || a.attrelid::regclass::text || '.' || a.attname || ':'
          || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull::text || ':'
          || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
        from pg_attribute a
        join pg_class c on c.oid = a.attrelid
        join ns n on n.oid = c.relnamespace
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attnum > 0 and not a.attisdropped
      union all
      select 'con:' || n.nspname || '.' || x.conname || ':' || pg_get_constraintdef(x.oid)
        from pg_constraint x join ns n on n.oid = x.connamespace
      union all
      select 'fn:' || p.oid::regprocedure::text from pg_proc p join ns n on n.oid = p.pronamespace
      union all
      select 'trg:' || t.tgrelid::regclass::text || '.' || t.tgname
        from pg_trigger t join pg_class c on c.oid = t.tgrelid join ns n on n.oid = c.relnamespace
        where not t.tgisinternal
      union all
      select 'type:' || n.nspname || '.' || t.typname from pg_type t join ns n on n.oid = t.typnamespace
    ) items`);
  return String(rows[0]?.digest);
}

/**
 * The shared store as one file sees it: its own drizzle handle and executor over the same
 * thread, which refuse work once the file has closed it, so a timer or job loop the file left
 * running cannot write into the next file's store.
 */
function loan(entry: Shared): Store {
  let returned = false;
  const guard = <T>(work: () => Promise<T>): Promise<T> =>
    returned ? Promise.reject(new Error("the database is closed")) : work();
  const thread = (entry.store.db as unknown as { $client: PgliteThread }).$client;
  const guardedTransaction = (tx: PgliteTransaction): PgliteTransaction => ({
    query: (text, params, options) => guard(() => tx.query(text, params, options)),
    exec: (text) => guard(() => tx.exec(text)),
    rollback: () => tx.rollback(),
    get closed() {
      return tx.closed;
    },
  });
  const client = {
    query: (text: string, params?: unknown[], options?: Parameters<PgliteThread["query"]>[2]) =>
      guard(() => thread.query(text, params, options)),
    exec: (text: string) => guard(() => thread.exec(text)),
    transaction: <T>(fn: (tx: PgliteTransaction) => Promise<T>) =>
      guard(() => thread.transaction((tx) => fn(guardedTransaction(tx)))),
  };
  return {
    db: drizzle({ client: client as unknown as PGlite, schema }),
    sql: { executeSql: (text, values) => guard(() => entry.store.sql.executeSql(text, values)) },
    kind: "pglite",
    location: entry.store.location,
    async close() {
      if (returned) return;
      returned = true;
      entry.lent = false;
    },
  };
}
