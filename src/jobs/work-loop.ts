import type PgBoss from "pg-boss";
import { JOBS_SCHEMA } from "../store/index.js";
import type { Jobs, QueueName } from "./boss.js";

export interface WorkJob<T> {
  id: string;
  data: T;
}

export interface WorkLoopOptions<T> {
  queue: QueueName;
  /** Jobs handled at once by this process. */
  concurrency: number;
  /**
   * Handles one job. Resolving completes it; throwing fails it, and pg-boss retries it with
   * backoff. Handlers write idempotently: a retried or duplicated job must change nothing twice.
   */
  handle(job: WorkJob<T>): Promise<void>;
  /** How long to wait before fetching again when the queue was empty (ms). */
  pollMs?: number;
  onError?(error: unknown): void;
}

export interface WorkLoop {
  /** Jobs in flight now. */
  active(): number;
  /** Stops fetching; resolves when the jobs in flight have ended. */
  stop(): Promise<void>;
}

/**
 * A fetch loop over one pg-boss queue. pg-boss's own `work()` waits a polling interval after every
 * batch, which caps throughput at batchSize per interval; this loop fetches again as soon as a slot
 * frees, and renews its active jobs (a heartbeat) so only a dead worker's jobs expire.
 */
export function startWorkLoop<T>(jobs: Jobs, options: WorkLoopOptions<T>): WorkLoop {
  const { boss, timing } = jobs;
  const pollMs = options.pollMs ?? 500;
  const onError = options.onError ?? (() => {});
  const inFlight = new Map<string, Promise<void>>();
  let stopping = false;
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const unsubscribe = jobs.onSent((queue) => {
    if (queue === options.queue) wakeUp();
  });

  const heartbeat = setInterval(() => {
    const ids = [...inFlight.keys()];
    if (ids.length === 0) return;
    jobs.store.sql
      .executeSql(
        `update ${JOBS_SCHEMA}.job set started_on = now()
         where name = $1 and id = any($2::uuid[]) and state = 'active'`,
        [options.queue, ids],
      )
      .catch(onError);
  }, timing.heartbeatSeconds * 1000);
  heartbeat.unref();

  // Completions are written in batches: one statement for the jobs that ended meanwhile. A job
  // whose completion is lost in a crash runs again, and its idempotent write changes nothing.
  let completing: string[] = [];
  let flushing: Promise<void> | undefined;
  function complete(id: string): Promise<void> {
    completing.push(id);
    if (!flushing) {
      flushing = (async () => {
        while (completing.length > 0) {
          const ids = completing;
          completing = [];
          await boss.complete(options.queue, ids).catch(onError);
        }
        flushing = undefined;
      })();
    }
    return flushing;
  }

  async function run(job: PgBoss.Job<T>): Promise<void> {
    try {
      await options.handle({ id: job.id, data: job.data });
      await complete(job.id);
    } catch (error) {
      onError(error);
      await boss
        .fail(options.queue, job.id, {
          message: error instanceof Error ? error.message : String(error),
        })
        .catch(onError);
    }
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = undefined;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = (async () => {
    while (!stopping) {
      const free = options.concurrency - inFlight.size;
      if (free <= 0) {
        await Promise.race(inFlight.values());
        continue;
      }
      let fetched: PgBoss.Job<T>[] = [];
      try {
        fetched = (await boss.fetch<T>(options.queue, { batchSize: free })) ?? [];
      } catch (error) {
        if (stopping) break;
        onError(error);
      }
      for (const job of fetched) {
        const promise = run(job).finally(() => {
          inFlight.delete(job.id);
          wakeUp();
        });
        inFlight.set(job.id, promise);
      }
      // A short batch means the queue is drained for now: wait for a job to end, a local send, or
      // the poll interval (jobs sent by other processes).
      if (fetched.length < free && !stopping) await sleep(pollMs);
    }
  })();

  return {
    active: () => inFlight.size,
    async stop() {
      stopping = true;
      unsubscribe();
      wakeUp();
      await loop;
      await Promise.allSettled(inFlight.values());
      clearInterval(heartbeat);
    },
  };
}
