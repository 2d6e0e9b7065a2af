// Seed 003's EvaluationTaskRunner as pg-boss queues, composed from one module per job: launching
// a run (launch.ts), running its items (item-runner.ts, over the run contexts of run-contexts.ts and
// the bots of evals/bots), and the pause/cancel watcher and stranded-run sweeper (watchers.ts).

import { type Jobs, QUEUES, startWorkLoop, type WorkLoop } from "../../jobs/index.js";
import type { LlmClients } from "../../llm/index.js";
import type { ObservationsConfig } from "../../rag/index.js";
import type { SecretKey } from "../../store/index.js";
import type { BotNetworkConfig } from "../bots/index.js";
import { itemRunner } from "./item-runner.js";
import { type ItemJob, type LaunchJob, launchRun } from "./launch.js";
import { runContexts } from "./run-contexts.js";
import { InFlightItems, startPauseWatcher, startStrandedRunSweeper } from "./watchers.js";

export type { ItemJob, LaunchJob } from "./launch.js";

export interface EvaluationWorkerOptions {
  jobs: Jobs;
  /** Items this process runs at once (default 16). */
  concurrency?: number;
  /** The configured roles' clients for a user (with that user's response cache unless noCache). */
  clientsFor(workspaceId: string, options: { noCache: boolean }): Partial<LlmClients>;
  /**
   * Sent as `Authorization: Bearer` to the plain-URL HTTP bots of runs started from the CLI
   * (RAGJUDGE_BOT_TOKEN); never stored, and never sent for a run an API user started.
   */
  botToken?: string;
  /** The operator's bot network policy, applied to runs started through the API (default: public addresses only). */
  botNetwork?: Partial<BotNetworkConfig>;
  /**
   * The operator's RAGJUDGE_SECRET_KEY, to open registered bots' encrypted secrets. Without it a
   * run of a bot whose secret is stored encrypted fails at its probe, saying so.
   */
  secretKey?: SecretKey;
  /**
   * Where and how this worker appends the built-in bot's observational_data.jsonl (seed 000) for
   * passing answers: the operator's `rag.loops.observations`. The path in a run's snapshot is the
   * starter's, which may not exist on this machine; default: no file. (Runs never add observations
   * to the database; see botOf.)
   */
  observations?: ObservationsConfig;
  /** How often in-flight runs are checked for pause and cancel (ms, default 250). */
  watchMs?: number;
  /** Consecutive unreachable-bot errors, with nothing scored yet, that fail a run (default 3). */
  failFastAfter?: number;
  onError?(error: unknown): void;
}

export interface EvaluationWorker {
  stop(): Promise<void>;
}

/**
 * `evaluation-launch` starts a run (and fails it fast when its bot cannot be reached),
 * `evaluation-item` runs one question. Any number of processes may run this against one
 * database; each item's write is idempotent.
 */
export function startEvaluationWorker(options: EvaluationWorkerOptions): EvaluationWorker {
  const { jobs } = options;
  const onError = options.onError ?? (() => {});
  const watchMs = options.watchMs ?? 250;
  let stopping = false;
  const contexts = runContexts({
    db: jobs.store.db,
    clientsFor: options.clientsFor,
    botToken: options.botToken,
    botNetwork: options.botNetwork,
    secretKey: options.secretKey,
    observations: options.observations,
  });
  const inFlight = new InFlightItems();
  const items = itemRunner({
    jobs,
    contexts,
    inFlight,
    waitMs: watchMs,
    failFastAfter: options.failFastAfter ?? 3,
    stopping: () => stopping,
  });
  const timers = [
    startPauseWatcher({ jobs, inFlight, onLeft: contexts.drop, everyMs: watchMs, onError }),
    startStrandedRunSweeper(jobs, onError),
  ];
  const loops: WorkLoop[] = [
    startWorkLoop<LaunchJob>(jobs, {
      queue: QUEUES.evaluationLaunch,
      concurrency: 2,
      handle: (job) => launchRun(jobs, contexts, job.data.evaluation_id),
      onError,
    }),
    startWorkLoop<ItemJob>(jobs, {
      queue: QUEUES.evaluationItem,
      concurrency: options.concurrency ?? 16,
      handle: (job) => items.run(job.id, job.data, job.release),
      onFetched: items.preclaim,
      onError,
    }),
  ];

  return {
    async stop() {
      stopping = true;
      for (const stopTimer of timers) stopTimer();
      inFlight.abortAll();
      await Promise.all(loops.map((loop) => loop.stop()));
      items.stop();
    },
  };
}
