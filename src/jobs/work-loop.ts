import type PgBoss from "pg-boss";
import type { Jobs, QueueName } from "./boss.js";
import { renewActiveJobs } from "./pgboss-internals.js";

export interface WorkJob<T> {
  id: string;
  data: T;
  /**
   * Frees this job's slot before the handler ends, so the next job starts while this one finishes
   * work that needs no slot (its durable write). The job still completes only when the handler
   * resolves. At most `concurrency` released jobs may be pending at once; past that, the job keeps
   * its slot until one of them ends.
   */
  release(): void;
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
  /**
   * Called with each fetched batch, before its jobs wait for slots: work for a whole batch (one
   * claim statement for all of them) can start here, off the jobs' critical path.
   */
  onFetched?(jobs: { id: string; data: T }[]): void;
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
 * A fetch loop over one pg-boss queue: fetches as soon as a slot frees, and renews its active jobs
 * (a heartbeat) so only a dead worker's jobs expire. Why not pg-boss's `work()`: pgboss-internals.ts.
 */
export function startWorkLoop<T>(jobs: Jobs, options: WorkLoopOptions<T>): WorkLoop {
  const { boss, timing } = jobs;
  const pollMs = options.pollMs ?? 500;
  const onError = options.onError ?? (() => {});
  const inFlight = new Map<string, Promise<void>>();
  /** Jobs in flight that hold a slot (the others have released theirs). */
  let holding = 0;
  const minBatch = Math.max(1, Math.floor(options.concurrency / 4));
  /** The last fetch found fewer jobs than it asked for: fetch for any free slot next time. */
  let drained = true;
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
    const ids = [...inFlight.keys(), ...buffer.map((job) => job.id), ...completing];
    if (ids.length === 0) return;
    renewActiveJobs(jobs.store, options.queue, ids).catch(onError);
  }, timing.heartbeatSeconds * 1000);
  heartbeat.unref();

  // Completions are written in batches, off the job's slot: the ids that ended within 100 ms go
  // in one statement. A job whose completion is lost in a crash runs again, and its idempotent
  // write changes nothing. Until written, they stay in the heartbeat.
  const completing = new Set<string>();
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let flushQueued = false;
  function flushCompletions(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (flushQueued) return flushing;
    flushQueued = true;
    flushing = flushing.then(async () => {
      flushQueued = false;
      const ids = [...completing];
      if (ids.length === 0) return;
      await boss.complete(options.queue, ids).catch(onError);
      for (const id of ids) completing.delete(id);
    });
    return flushing;
  }
  function complete(id: string): void {
    completing.add(id);
    if (completing.size >= options.concurrency) void flushCompletions();
    else flushTimer ??= setTimeout(() => void flushCompletions(), 100);
  }

  async function run(job: PgBoss.Job<T>, release: () => void): Promise<void> {
    try {
      await options.handle({ id: job.id, data: job.data, release });
      complete(job.id);
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

  /** Fetched jobs waiting for a slot: a small prefetch, so a slot that frees starts at once. */
  const buffer: PgBoss.Job<T>[] = [];
  /** Jobs started and not ended (counted before the handler runs, unlike inFlight). */
  let running = 0;
  /** Released jobs still running: at most `concurrency`; further releases wait here. */
  const released = () => running - holding;
  const waitingToRelease = new Set<() => void>();
  function start(job: PgBoss.Job<T>): void {
    running += 1;
    holding += 1;
    let held = true;
    const free = () => {
      if (!held) return;
      held = false;
      holding -= 1;
      wakeUp();
    };
    const release = () => {
      if (!held) return;
      if (released() < options.concurrency) free();
      else waitingToRelease.add(free);
    };
    const promise = run(job, release).finally(() => {
      running -= 1;
      inFlight.delete(job.id);
      waitingToRelease.delete(free);
      free();
      // A released job ended: one that asked to release at the cap may now.
      const next = waitingToRelease.values().next().value;
      if (next && released() < options.concurrency) {
        waitingToRelease.delete(next);
        next();
      }
      wakeUp();
    });
    inFlight.set(job.id, promise);
  }

  const loop = (async () => {
    while (!stopping) {
      while (holding < options.concurrency) {
        const job = buffer.shift();
        if (!job) break;
        start(job);
      }
      // Room for the slots plus a prefetch of a quarter of them. Fetch once a quarter is free,
      // not after every job: one fetch query then serves several jobs (on PGlite each query costs
      // the whole process CPU). When the queue ran dry, any idle slot is worth a fetch.
      const room = options.concurrency + minBatch - holding - buffer.length;
      const idle = holding < options.concurrency;
      if (room >= minBatch || (drained && idle && room > 0)) {
        let fetched: PgBoss.Job<T>[] = [];
        try {
          fetched = (await boss.fetch<T>(options.queue, { batchSize: room })) ?? [];
        } catch (error) {
          if (stopping) break;
          onError(error);
        }
        if (fetched.length > 0) options.onFetched?.(fetched);
        buffer.push(...fetched);
        drained = fetched.length < room;
        if (fetched.length > 0) continue;
        // Nothing queued: wait for a job to end, a local send, or the poll interval (jobs sent by
        // other processes).
        if (!stopping) await sleep(pollMs);
        continue;
      }
      // A job that ends or releases its slot wakes this.
      await sleep(pollMs);
    }
  })();

  return {
    active: () => inFlight.size,
    async stop() {
      stopping = true;
      unsubscribe();
      wakeUp();
      await loop;
      // Jobs fetched but never started go back to the queue at once, for another worker.
      const unstarted = buffer.splice(0).map((job) => job.id);
      if (unstarted.length > 0) await boss.fail(options.queue, unstarted).catch(onError);
      await Promise.allSettled(inFlight.values());
      await flushCompletions();
      clearInterval(heartbeat);
    },
  };
}
