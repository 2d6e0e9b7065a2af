import { type Jobs, QUEUES, startWorkLoop, type WorkLoop } from "../../jobs/index.js";
import type { LlmClients } from "../../llm/index.js";
import { getArenaForWorker, markArena, strandedPendingArenas } from "../../store/index.js";
import { ArenaSnapshotSchema } from "./request.js";
import { completeArena } from "./service.js";

// The `arena-compare` queue: an arena is compared by a worker, not by whoever reads it, so a
// pairwise arena's LLM verdicts survive a restart (pg-boss retries a job whose worker died) and
// every read returns stored results. While the contestants' runs are still going, the job looks
// again a little later (a new job, delayed), touching the row so the sweeper leaves it alone.

export interface ArenaJob {
  arena_id: string;
}

export interface ArenaWorkerOptions {
  jobs: Jobs;
  /** The configured roles' clients for a user: the pairwise judge uses `judge`. */
  clientsFor(userId: string, options: { noCache: boolean }): Partial<LlmClients>;
  /** Arenas compared at once by this process (default 1: a pairwise one keeps the judge busy). */
  concurrency?: number;
  /** How long to wait before looking at unfinished runs again (seconds, default 2). */
  recheckSeconds?: number;
  /** A PENDING arena untouched this long has lost its job and is enqueued again (ms, default 30 s). */
  strandedAfterMs?: number;
  /** How often to look for such arenas (ms, default 15 s). */
  sweepMs?: number;
  onError?(error: unknown): void;
}

export interface ArenaWorker {
  stop(): Promise<void>;
}

export function startArenaWorker(options: ArenaWorkerOptions): ArenaWorker {
  const { jobs } = options;
  const db = jobs.store.db;
  const onError = options.onError ?? (() => {});
  const controller = new AbortController();

  async function compare(arenaId: string): Promise<void> {
    const row = await getArenaForWorker(db, arenaId);
    if (!row || (row.status !== "PENDING" && row.status !== "RUNNING")) return;
    const snapshot = ArenaSnapshotSchema.parse(row.config);
    const judgeClient =
      snapshot.judge === "pairwise"
        ? options.clientsFor(row.user_id, { noCache: snapshot.no_cache }).judge
        : undefined;
    const after = await completeArena({ db }, row.user_id, row.id, {
      ...(judgeClient ? { judgeClient } : {}),
      signal: controller.signal,
    });
    if (after.status === "PENDING") {
      await markArena(db, row.id, "PENDING");
      await jobs.send(QUEUES.arenaCompare, [{ arena_id: row.id } satisfies ArenaJob], {
        startAfterSeconds: options.recheckSeconds ?? 2,
      });
    }
  }

  const sweeper = setInterval(() => {
    strandedPendingArenas(db, options.strandedAfterMs ?? 30_000)
      .then((ids) =>
        ids.length > 0
          ? jobs.send(
              QUEUES.arenaCompare,
              ids.map((arena_id) => ({ arena_id }) satisfies ArenaJob),
            )
          : undefined,
      )
      .catch(onError);
  }, options.sweepMs ?? 15_000);
  sweeper.unref();

  const loop: WorkLoop = startWorkLoop<ArenaJob>(jobs, {
    queue: QUEUES.arenaCompare,
    concurrency: options.concurrency ?? 1,
    handle: (job) => compare(job.data.arena_id),
    onError,
  });

  return {
    async stop() {
      clearInterval(sweeper);
      // A comparison cut short throws (aborted): its job fails and another worker retries it.
      controller.abort();
      await loop.stop();
    },
  };
}
