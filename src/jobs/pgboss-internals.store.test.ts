import { createRequire } from "node:module";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { createDatabase } from "../../test/support/postgres-server.js";
import { JOBS_SCHEMA, openStore, queryRows, type Store } from "../store/index.js";
import { type Jobs, startJobs } from "./boss.js";
import { createQueueOnce, renewActiveJobs } from "./pgboss-internals.js";

// The contract of pgboss-internals.ts with the installed pg-boss, on a database pg-boss itself
// set up: if an upgrade renames the job table's columns, changes create_queue's signature or
// stops reading started_on when it expires jobs, this fails before a worker's heartbeat silently
// stops keeping its jobs.

let store: Store;
let jobs: Jobs;
beforeAll(async () => {
  store = await openStore({ databaseUrl: await createDatabase(inject("postgresUrl"), "pgboss") });
  jobs = await startJobs(store);
});
afterAll(async () => {
  await jobs?.stop();
  await store?.close();
});

it("the job table has the columns the heartbeat writes, with their types", async () => {
  const columns = await queryRows<{ column_name: string; udt_name: string }>(
    store.db,
    sql`select column_name, udt_name from information_schema.columns
        where table_schema = ${JOBS_SCHEMA} and table_name = 'job'
          and column_name in ('id', 'name', 'state', 'started_on', 'expire_in')
        order by column_name`,
  );
  expect(columns).toEqual([
    { column_name: "expire_in", udt_name: "interval" },
    { column_name: "id", udt_name: "uuid" },
    { column_name: "name", udt_name: "text" },
    { column_name: "started_on", udt_name: "timestamptz" },
    { column_name: "state", udt_name: "job_state" },
  ]);
  const [states] = await queryRows<{ active: boolean }>(
    store.db,
    sql`select 'active' = any(enum_range(null::${sql.raw(JOBS_SCHEMA)}.job_state)::text[]) as active`,
  );
  expect(states?.active).toBe(true);
});

it("create_queue(text, json) exists, and creating a queue twice keeps one", async () => {
  const [fn] = await queryRows<{ found: boolean }>(
    store.db,
    sql`select to_regprocedure(${`${JOBS_SCHEMA}.create_queue(text, json)`}) is not null as found`,
  );
  expect(fn?.found).toBe(true);
  const options = {
    policy: "standard" as const,
    retryLimit: 3,
    retryDelay: 1,
    retryBackoff: false,
    expireInSeconds: 7,
  };
  await createQueueOnce(store, "contract-twice", options);
  await createQueueOnce(store, "contract-twice", options);
  const queues = await queryRows<{ expire_seconds: number; retry_limit: number }>(
    store.db,
    sql`select expire_seconds, retry_limit from ${sql.raw(JOBS_SCHEMA)}.queue where name = 'contract-twice'`,
  );
  expect(queues).toEqual([{ expire_seconds: 7, retry_limit: 3 }]);
});

it("a renewed job is not expired by pg-boss's own expiry, and one not renewed is", async () => {
  const queue = "contract-expiry";
  await createQueueOnce(store, queue, {
    policy: "standard",
    retryLimit: 3,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: 5,
  });
  await jobs.boss.insert([
    { name: queue, data: { n: 1 } },
    { name: queue, data: { n: 2 } },
  ]);
  const fetched = (await jobs.boss.fetch<{ n: number }>(queue, { batchSize: 2 })) ?? [];
  expect(fetched).toHaveLength(2);
  const [renewed, stale] = [...fetched].sort((a, b) => a.data.n - b.data.n);
  const setStarted = (interval: string) =>
    store.sql.executeSql(
      `update ${JOBS_SCHEMA}.job set started_on = now() - $2::interval where name = $1`,
      [queue, interval],
    );
  // Both started a minute ago, well past expire_in; the heartbeat renews one of them.
  await setStarted("1 minute");
  await renewActiveJobs(store, queue, [renewed!.id]);
  // pg-boss's supervisor runs exactly this statement to expire jobs.
  const plans = createRequire(import.meta.url)("pg-boss/src/plans.js") as {
    failJobsByTimeout(schema: string): string;
  };
  await store.sql.executeSql(plans.failJobsByTimeout(JOBS_SCHEMA), []);
  const states = await queryRows<{ id: string; state: string }>(
    store.db,
    sql`select id::text, state::text from ${sql.raw(JOBS_SCHEMA)}.job where name = ${queue}`,
  );
  const stateOf = new Map(states.map((row) => [row.id, row.state]));
  expect(stateOf.get(renewed!.id)).toBe("active");
  expect(stateOf.get(stale!.id)).toBe("retry");
});
