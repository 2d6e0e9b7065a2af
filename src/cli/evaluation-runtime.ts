import { type RagjudgeConfig, workerClients } from "../config/index.js";
import { type ArenaWorker, startArenaWorker } from "../evals/arena/index.js";
import {
  type ControlDeps,
  type EvaluationWorker,
  pauseEvaluation,
  progressOf,
  startEvaluationWorker,
} from "../evals/runs/index.js";
import { type Jobs, startJobs } from "../jobs/index.js";
import { type EvaluationRow, getEvaluation, isConnectionError } from "../store/index.js";
import { createProgressReporter } from "./render/progress.js";
import type { StoreSession } from "./store-session.js";
import { sessionLoopsConfig } from "./llm-session.js";

/** The statuses a run stops at; PAUSED too, since nothing moves it on until someone resumes it. */
const STOPPED = new Set(["COMPLETED", "FAILED", "CANCELLED", "PAUSED"]);

/** Jobs on the session's store, and (unless `worker` is false) an evaluation worker in-process. */
export interface EvaluationRuntime {
  jobs: Jobs;
  deps: ControlDeps;
  worker: EvaluationWorker | undefined;
  /** Compares arenas started through the API (their `arena-compare` jobs), with the worker. */
  arenaWorker: ArenaWorker | undefined;
  stop(): Promise<void>;
}

export async function startEvaluationRuntime(
  session: StoreSession,
  config: RagjudgeConfig,
  options: { worker: boolean; concurrency: number; onError?: (error: unknown) => void },
): Promise<EvaluationRuntime> {
  const jobs = await startJobs(session.store);
  const worker = options.worker
    ? startEvaluationWorker({
        jobs,
        concurrency: options.concurrency,
        clientsFor: workerClients(session.store.db, config.llm),
        observations: sessionLoopsConfig(config, session).observations,
        // The token goes to CLI runs' bots only; API runs this worker picks up from a shared
        // database get their users' own credentials and the configured network policy.
        ...(process.env.RAGJUDGE_BOT_TOKEN ? { botToken: process.env.RAGJUDGE_BOT_TOKEN } : {}),
        botNetwork: config.bots,
        ...(config.secret_key ? { secretKey: config.secret_key } : {}),
        ...(options.onError ? { onError: options.onError } : {}),
      })
    : undefined;
  const arenaWorker = options.worker
    ? startArenaWorker({
        jobs,
        clientsFor: workerClients(session.store.db, config.llm),
        ...(options.onError ? { onError: options.onError } : {}),
      })
    : undefined;
  return {
    jobs,
    deps: { db: session.store.db, jobs },
    worker,
    arenaWorker,
    async stop() {
      await arenaWorker?.stop();
      await worker?.stop();
      await jobs.stop();
    },
  };
}

export interface FollowOutcome {
  row: EvaluationRow;
  /** Ctrl-C was pressed: the run was paused (when it was still live). */
  interrupted: boolean;
}

/** How long a run is followed while its database cannot be reached, before giving up (exit 3). */
const RECONNECT_MS = 5 * 60_000;

/**
 * Waits for a run to stop, drawing its progress on stderr. Ctrl-C pauses the run (its items go
 * back to PENDING) instead of leaving it running with nobody to finish it. A database that goes
 * away (a restart, a failover) is waited for: the worker's items are retried once it is back.
 */
export async function followEvaluation(
  runtime: EvaluationRuntime,
  workspaceId: string,
  evaluationId: string,
  options: { pollMs?: number; stream?: NodeJS.WriteStream } = {},
): Promise<FollowOutcome> {
  const stream = options.stream ?? process.stderr;
  const reporter = createProgressReporter({ stream, tty: stream.isTTY === true });
  let interrupted = false;
  let wake: (() => void) | undefined;
  const onSigint = () => {
    interrupted = true;
    wake?.();
  };
  process.on("SIGINT", onSigint);
  try {
    let unreachableSince: number | undefined;
    for (;;) {
      let row: EvaluationRow | undefined;
      try {
        row = await getEvaluation(runtime.deps.db, workspaceId, evaluationId);
        unreachableSince = undefined;
      } catch (error) {
        if (!isConnectionError(error)) throw error;
        unreachableSince ??= Date.now();
        if (Date.now() - unreachableSince > RECONNECT_MS) throw error;
      }
      if (row === undefined && unreachableSince === undefined) {
        throw new Error(`evaluation ${evaluationId} disappeared while running`);
      }
      if (row === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      reporter.update(progressOf(row), row.status);
      if (STOPPED.has(row.status)) return { row, interrupted: false };
      if (interrupted) {
        const paused = await pauseEvaluation(runtime.deps, workspaceId, evaluationId).catch(
          () => row,
        );
        return { row: paused, interrupted: true };
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs ?? 250);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    process.off("SIGINT", onSigint);
    reporter.done();
  }
}
