import PgBoss from "pg-boss";
import { JOBS_SCHEMA, type Store } from "../store/index.js";
import { createQueueOnce } from "./pgboss-internals.js";

/** The queues ragjudge uses; each job is one unit of durable work. */
export const QUEUES = {
  /** One question of one evaluation: ask the bot, gate, judge, write the result. */
  evaluationItem: "evaluation-item",
  /** Moves a PENDING evaluation to RUNNING (or FAILED) and enqueues its unfinished items. */
  evaluationLaunch: "evaluation-launch",
  /** Generates questions from a collection (seed 003 QuestionGenerationTask). */
  questionGeneration: "question-generation",
  /** Compares an arena's contestants once their runs have finished, and stores the results. */
  arenaCompare: "arena-compare",
  /** One production answer a monitor took up: run the monitor's judges, store the result. */
  monitorJudge: "monitor-judge",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface JobsTiming {
  /**
   * A job not heard from for this long is expired and retried elsewhere. Workers renew their
   * active jobs every `heartbeatSeconds`, so this bounds how long a crashed worker's item waits,
   * not how long an item may take (pg-boss's default is 15 minutes).
   */
  expireInSeconds: number;
  heartbeatSeconds: number;
  /** How often pg-boss's supervisor expires jobs (pg-boss default 2 minutes). */
  maintenanceIntervalSeconds: number;
}

export const DEFAULT_JOBS_TIMING: JobsTiming = {
  expireInSeconds: 10,
  heartbeatSeconds: 2,
  maintenanceIntervalSeconds: 2,
};

export interface Jobs {
  boss: PgBoss;
  timing: JobsTiming;
  store: Store;
  /** Enqueues jobs in one statement; `startAfterSeconds` delays them (a job polling for later). */
  send(queue: QueueName, data: object[], options?: { startAfterSeconds?: number }): Promise<void>;
  /** Called after a local send, so an in-process worker fetches at once instead of polling. */
  onSent(listener: (queue: QueueName) => void): () => void;
  stop(): Promise<void>;
}

/**
 * Starts pg-boss on the store's own connection (PGlite or the server pool), so both modes share
 * one code path. The schema exists already (store migrations create it).
 */
export async function startJobs(store: Store, timing: Partial<JobsTiming> = {}): Promise<Jobs> {
  const t = { ...DEFAULT_JOBS_TIMING, ...timing };
  const boss = new PgBoss({
    db: store.sql,
    schema: JOBS_SCHEMA,
    supervise: true,
    schedule: false,
    migrate: true,
    maintenanceIntervalSeconds: t.maintenanceIntervalSeconds,
    monitorStateIntervalSeconds: 60,
  } as PgBoss.ConstructorOptions);
  const errors: Error[] = [];
  boss.on("error", (error) => {
    // Supervisor errors (e.g. a connection closing at shutdown) are not the caller's failure.
    if (errors.length < 10) errors.push(error);
  });
  await boss.start();
  await ensureQueues(store, t);
  const listeners = new Set<(queue: QueueName) => void>();
  return {
    boss,
    timing: t,
    store,
    async send(queue, data, options = {}) {
      const startAfter =
        options.startAfterSeconds === undefined
          ? {}
          : { startAfter: new Date(Date.now() + options.startAfterSeconds * 1000) };
      for (let i = 0; i < data.length; i += 1000) {
        await boss.insert(
          data.slice(i, i + 1000).map((d) => ({ name: queue, data: d, ...startAfter })),
        );
      }
      for (const listener of listeners) listener(queue);
    },
    onSent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      await boss.stop({ graceful: false, wait: true, close: false });
    },
  };
}

/** Creates the queues that do not exist yet (pgboss-internals.ts says how, and why so). */
async function ensureQueues(store: Store, timing: JobsTiming): Promise<void> {
  for (const name of Object.values(QUEUES)) {
    await createQueueOnce(store, name, {
      policy: "standard",
      retryLimit: 20,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: timing.expireInSeconds,
    });
  }
}
