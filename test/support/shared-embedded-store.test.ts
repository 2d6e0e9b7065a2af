import { afterEach, describe, expect, it } from "vitest";
import { startJobs } from "../../src/jobs/index.js";
import { findOrCreateUser, openStore, type Store } from "../../src/store/index.js";
import { borrowEmbeddedStore } from "./shared-embedded-store.js";
import { pgliteTemplate } from "./stores.js";

// Every test here borrows the worker's shared store, as a test file does through openTestStore.
let opened: Store[] = [];
const openFresh = async () => {
  const store = await openStore({ memory: true, thread: true, loadDataDir: pgliteTemplate() });
  opened.push(store);
  return store;
};
const held: Store[] = [];
const borrow = async (options?: { cleanTimeoutMs?: number }) => {
  const store = await borrowEmbeddedStore(openFresh, options);
  held.push(store);
  return store;
};
afterEach(async () => {
  for (const store of held.splice(0)) await store.close();
  opened = [];
});

/** Fails unless `work` rejects as a closed store's calls do (drizzle wraps that as the cause). */
async function expectClosed(work: Promise<unknown>): Promise<void> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  const reason = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  expect(reason).toHaveProperty("message", "the database is closed");
}

const rows = async (store: Store, text: string) => (await store.sql.executeSql(text)).rows;
const one = async (store: Store, text: string) => (await rows(store, text))[0];

describe("the worker's shared embedded store", () => {
  it("is lent again once returned; a second one held at once is the caller's own", async () => {
    const first = await borrow();
    const second = await borrow();
    // The second came straight from openFresh: its close() closes it.
    expect(opened.at(-1)).toBe(second);
    const openedSoFar = opened.length;
    await first.close();
    const again = await borrow();
    expect(opened).toHaveLength(openedSoFar);
    expect(await one(again, "select 1 as x")).toEqual({ x: 1 });
    await second.close();
    await expect(rows(second, "select 1")).rejects.toThrow(/closed/);
  });

  it("refuses work through a loan once it is returned, as a closed store does", async () => {
    const store = await borrow();
    await store.close();
    await expectClosed(rows(store, "select 1"));
    await expectClosed(findOrCreateUser(store.db, "late"));
    await expectClosed(store.db.transaction(async () => {}));
  });

  it("comes back empty: rows, pg-boss's queues and jobs, other schemas, session state", async () => {
    const before = await borrow();
    await findOrCreateUser(before.db, "left-behind");
    const jobs = await startJobs(before, { expireInSeconds: 3 });
    await jobs.send("evaluation-item", [{ left: "behind" }]);
    await jobs.stop();
    await rows(
      before,
      `set statement_timeout = '1234s';
       create schema left_behind; create table left_behind.t (x int);
       prepare left_behind_plan as select 1;
       select pg_advisory_lock(42);
       create temp table left_temp (x int);
       listen left_behind_channel`,
    );
    await before.close();
    const openedSoFar = opened.length;

    const after = await borrow();
    expect(opened).toHaveLength(openedSoFar); // the same store, emptied
    expect(
      await one(
        after,
        `select (select count(*)::int from users) as users,
          (select count(*)::int from pgboss.queue) as queues,
          (select count(*)::int from pgboss.job) as jobs,
          (select count(*)::int from pg_namespace where nspname = 'left_behind') as schemas,
          current_setting('statement_timeout') as statement_timeout,
          (select count(*)::int from pg_prepared_statements) as prepared,
          (select count(*)::int from pg_locks where locktype = 'advisory') as advisory_locks,
          to_regclass('left_temp')::text as temp_table,
          (select count(*)::int from pg_listening_channels()) as listening`,
      ),
    ).toEqual({
      users: 0,
      queues: 0,
      jobs: 0,
      schemas: 0,
      statement_timeout: "0",
      prepared: 0,
      advisory_locks: 0,
      temp_table: null,
      listening: 0,
    });
    // pg-boss starts on it as on a new store, and its queues take this caller's options.
    const again = await startJobs(after);
    try {
      expect(
        await one(after, "select expire_seconds from pgboss.queue where name = 'evaluation-item'"),
      ).toEqual({ expire_seconds: again.timing.expireInSeconds });
    } finally {
      await again.stop();
    }
  });

  it("is replaced when a file changed it beyond emptying (a constraint left behind)", async () => {
    const before = await borrow();
    await rows(before, "alter table users add constraint left_behind check (name <> 'x')");
    await before.close();
    const openedSoFar = opened.length;
    const after = await borrow();
    expect(opened).toHaveLength(openedSoFar + 1);
    expect(
      await one(
        after,
        "select count(*)::int as n from pg_constraint where conname = 'left_behind'",
      ),
    ).toEqual({ n: 0 });
  });

  it("is replaced when a file left a transaction open", async () => {
    const before = await borrow();
    await rows(before, "begin; insert into users (name) values ('uncommitted')");
    await before.close();
    const openedSoFar = opened.length;
    const after = await borrow();
    expect(opened).toHaveLength(openedSoFar + 1);
    expect(await one(after, "select count(*)::int as n from users")).toEqual({ n: 0 });
  });

  it("is replaced when it does not answer: a transaction whose work never ends", async () => {
    const before = await borrow();
    let finish = () => {};
    const stuck = before.db.transaction(() => new Promise<void>((resolve) => (finish = resolve)));
    await before.close();
    const openedSoFar = opened.length;
    const after = await borrow({ cleanTimeoutMs: 1_000 });
    expect(opened).toHaveLength(openedSoFar + 1);
    expect(await one(after, "select 1 as x")).toEqual({ x: 1 });
    // Let the old store's transaction end, so its thread can close and leave the process.
    finish();
    await stuck;
  });
});
