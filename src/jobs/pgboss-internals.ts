// Every place ragjudge relies on pg-boss beyond its public API, in one file. Each one is checked
// against the installed pg-boss on a database it created by pgboss-internals.store.test.ts, which
// fails when an upgrade changes the table, the function or the expiry rule used here.
//
// Why not `boss.work()` (pg-boss 10): its workers hold a job from fetch to the handler's end, with
// no way to renew it, so `expireInSeconds` would have to outlast the slowest item (a bot may take
// 600 s, retried) and a dead worker's items would wait that long; ragjudge renews its active jobs
// every 2 s and expires them after 10 s. Nor can a `work()` handler free its slot before its
// result is written (WorkJob.release), nor claim a fetched batch in one statement (onFetched).
// It is slower too (`npx tsx bench/work-loop.ts`: 400 jobs, 16 at once, lognormal waits, embedded
// store on a loaded 2-core machine): at a 300 ms median `work()` took 1.68x the bound against this
// loop's 1.30x (a worker waits out the rest of its 500 ms polling interval after a shorter job);
// at 800 ms, 1.42x against 1.04x (a fetch per job, on one database thread).

import { sql } from "drizzle-orm";
import { JOBS_SCHEMA, type Store } from "../store/index.js";

/**
 * Renews jobs this process is running: pg-boss expires an active job when `started_on +
 * expire_in` has passed, so moving `started_on` to now is a heartbeat. pg-boss 10 has no public
 * call for it.
 */
export async function renewActiveJobs(
  store: Store,
  queue: string,
  ids: readonly string[],
): Promise<void> {
  await store.sql.executeSql(
    `update ${JOBS_SCHEMA}.job set started_on = now()
     where name = $1 and id = any($2::uuid[]) and state = 'active'`,
    [queue, [...ids]],
  );
}

export interface QueueOptions {
  policy: "standard";
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
}

/**
 * Creates a queue unless it exists, through pg-boss's `create_queue(name, options)` SQL function
 * (what `boss.createQueue` calls) inside a transaction holding an advisory lock: create_queue adds
 * a partition to the job table, and two processes creating the same queue at once deadlock (a
 * worker and `eval --no-worker` starting together did, one run in four); the second now finds the
 * queue there.
 */
export async function createQueueOnce(
  store: Store,
  name: string,
  options: QueueOptions,
): Promise<void> {
  await store.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ragjudge:queues'))`);
    await tx.execute(
      sql`select ${sql.raw(JOBS_SCHEMA)}.create_queue(${name}, ${JSON.stringify(options)}::json)`,
    );
  });
}
