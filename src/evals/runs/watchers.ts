// The worker's two timers: the pause/cancel watcher over the runs this process has items of, and
// the sweeper that launches again a run whose launch job was lost.

import { type Jobs, QUEUES } from "../../jobs/index.js";
import { evaluationStatuses, strandedPendingEvaluations } from "../../store/index.js";

/** The items this process has in flight, per run, each with the controller that aborts it. */
export class InFlightItems {
  private readonly byRun = new Map<string, Set<AbortController>>();

  /** A controller for one item of `evaluationId`; call the returned function when the item ends. */
  start(evaluationId: string): { controller: AbortController; end(): void } {
    const controller = new AbortController();
    let set = this.byRun.get(evaluationId);
    if (!set) this.byRun.set(evaluationId, (set = new Set()));
    set.add(controller);
    return {
      controller,
      end: () => {
        set.delete(controller);
        if (set.size === 0) this.byRun.delete(evaluationId);
      },
    };
  }

  runs(): string[] {
    return [...this.byRun.keys()];
  }

  abort(evaluationId: string): void {
    for (const controller of this.byRun.get(evaluationId) ?? []) controller.abort();
  }

  abortAll(): void {
    for (const id of this.byRun.keys()) this.abort(id);
  }
}

export interface PauseWatcherOptions {
  jobs: Jobs;
  inFlight: InFlightItems;
  /** Called for each run that left RUNNING, after its items were aborted. */
  onLeft(evaluationId: string): void;
  everyMs: number;
  onError(error: unknown): void;
}

/**
 * Pause and cancel are rows in the database, so they reach every machine: polls the statuses of
 * the runs this process has items of, and aborts their calls when they leave RUNNING.
 */
export function startPauseWatcher(options: PauseWatcherOptions): () => void {
  const timer = setInterval(() => {
    const ids = options.inFlight.runs();
    if (ids.length === 0) return;
    evaluationStatuses(options.jobs.store.db, ids)
      .then((statuses) => {
        for (const id of ids) {
          if ((statuses.get(id) ?? "CANCELLED") === "RUNNING") continue;
          options.inFlight.abort(id);
          options.onLeft(id);
        }
      })
      .catch(options.onError);
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A run whose launch job was lost (a crash between creating it and sending the job) is found
 * still PENDING after 30 s and launched again; launching is idempotent.
 */
export function startStrandedRunSweeper(jobs: Jobs, onError: (error: unknown) => void): () => void {
  const timer = setInterval(() => {
    strandedPendingEvaluations(jobs.store.db, 30_000)
      .then((ids) =>
        ids.length > 0
          ? jobs.send(
              QUEUES.evaluationLaunch,
              ids.map((evaluation_id) => ({ evaluation_id })),
            )
          : undefined,
      )
      .catch(onError);
  }, 15_000);
  timer.unref();
  return () => clearInterval(timer);
}
