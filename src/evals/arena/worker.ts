import { type Jobs, QUEUES, startWorkLoop, type WorkLoop } from "../../jobs/index.js";
import type { LlmClients } from "../../llm/index.js";
import { getArenaForWorker, strandedPendingArenas, touchPendingArena } from "../../store/index.js";
import { ArenaSnapshotSchema } from "./request.js";
import { completeArena } from "./service.js";

// The `arena-compare` queue: an arena is compared by a worker, not by whoever reads it, so a
// pairwise arena's LLM verdicts survive a restart (pg-boss retries a job whose worker died) and
// every read returns stored results. While the contestants' runs are still going, the job looks
// again a little later (a new job, delayed), touching the row so the sweeper leaves it alone.

export interface ArenaJob {
  arena_id: string;
  /** How many times this arena was found waiting for its runs: the next look backs off. */
  waits?: number;
  /**
   * The arena's update time when this job was sent by the previous look (ms since the epoch). A
   * job that finds it changed was overtaken by another (a sweep's) and leaves the arena to it.
   */
  seen?: number;
}

/** The longest wait between two looks at an arena's unfinished runs (seconds). */
const MAX_RECHECK_SECONDS = 30;

export interface ArenaWorkerOptions {
  jobs: Jobs;
  /** The configured roles' clients for a user: the pairwise judge uses `judge`. */
  clientsFor(workspaceId: string, options: { noCache: boolean }): Partial<LlmClients>;
  /** Arenas compared at once by this process (default 1: a pairwise one keeps the judge busy). */
  concurrency?: number;
  /** How long to wait before looking at unfinished runs again the first time (seconds, default 2; then 1.5 times longer each time, up to 30 s). */
  recheckSeconds?: number;
  /**
   * A PENDING arena untouched this long has lost its job and is enqueued again (ms, default 2
   * minutes: well past the longest wait between two looks, 30 s).
   */
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

  async function compare(job: ArenaJob): Promise<void> {
    const row = await getArenaForWorker(db, job.arena_id);
    if (!row || (row.status !== "PENDING" && row.status !== "RUNNING")) return;
    const waits = job.waits ?? 0;
    if (
      row.status === "PENDING" &&
      job.seen !== undefined &&
      Math.abs(row.gmt_updated.getTime() - job.seen) >= 1
    ) {
      return; // another job looked at it since this one was sent: that one carries on
    }
    const snapshot = ArenaSnapshotSchema.parse(row.config);
    const judgeClient =
      snapshot.judge === "pairwise"
        ? options.clientsFor(row.workspace_id, { noCache: snapshot.no_cache }).judge
        : undefined;
    const after = await completeArena({ db }, row.workspace_id, row.id, {
      ...(judgeClient ? { judgeClient } : {}),
      signal: controller.signal,
    });
    if (after.status === "PENDING") {
      // Only one job goes on waiting for an arena: the one whose touch finds the row as it read it.
      const touched = await touchPendingArena(db, row.id, row.gmt_updated);
      if (!touched) return;
      // A long run (or a paused one) is looked at less and less often.
      const delay = Math.min(MAX_RECHECK_SECONDS, (options.recheckSeconds ?? 2) * 1.5 ** waits);
      await jobs.send(
        QUEUES.arenaCompare,
        [
          {
            arena_id: row.id,
            waits: waits + 1,
            seen: touched.gmt_updated.getTime(),
          } satisfies ArenaJob,
        ],
        { startAfterSeconds: delay },
      );
    }
  }

  const sweeper = setInterval(() => {
    strandedPendingArenas(db, options.strandedAfterMs ?? 120_000)
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
    handle: (job) => compare(job.data),
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
