// The `monitor-judge` queue: one job per answer a monitor took up. The job claims the judgment
// row (only a queued one, or its own after its worker died), runs the monitor's judges, and
// writes the result in one statement that changes nothing unless it still holds the claim: a
// judgment is stored once, whatever pg-boss redelivers.

import type { JudgeKind, JudgesConfig } from "../../judges/index.js";
import { type Jobs, QUEUES, startWorkLoop } from "../../jobs/index.js";
import type { LlmClients } from "../../llm/index.js";
import { claimJudgment, finishJudgment, strandedJudgments } from "../../store/index.js";
import { judgeAnswer, type JudgedAnswer } from "./judge-answer.js";

export interface MonitorJob {
  judgment_id: string;
}

export interface MonitorWorkerOptions {
  jobs: Jobs;
  clientsFor(workspaceId: string, options: { noCache: boolean }): Partial<LlmClients>;
  judges: JudgesConfig;
  /** Metadata keys the rollups break down by (config production.breakdown_keys). */
  breakdownKeys?: readonly string[];
  /** Answers judged at once by this process (default 4). */
  concurrency?: number;
  /** A judgment queued this long without being claimed has lost its job (ms, default 60 s). */
  strandedAfterMs?: number;
  /** How often to look for those (ms, default 15 s). */
  sweepMs?: number;
  onError?(error: unknown): void;
}

export interface MonitorWorker {
  stop(): Promise<void>;
}

/** Sends a job per queued judgment. */
export function sendMonitorJobs(jobs: Jobs, judgmentIds: readonly string[]): Promise<void> {
  return jobs.send(
    QUEUES.monitorJudge,
    judgmentIds.map((judgment_id) => ({ judgment_id }) satisfies MonitorJob),
  );
}

export function startMonitorWorker(options: MonitorWorkerOptions): MonitorWorker {
  const { jobs } = options;
  const db = jobs.store.db;
  const onError = options.onError ?? (() => {});
  const controller = new AbortController();

  async function judge(jobId: string, data: MonitorJob): Promise<void> {
    const claimed = await claimJudgment(db, data.judgment_id, jobId);
    if (!claimed) return; // judged already, or another job's
    const { judgment, monitor, answer } = claimed;
    const client = options.clientsFor(monitor.workspace_id, { noCache: false }).judge;
    const outcome = await judgeAnswer(answer as JudgedAnswer, monitor.judges as JudgeKind[], {
      ...(client ? { client } : {}),
      config: options.judges,
      signal: controller.signal,
    });
    await finishJudgment(db, {
      judgmentId: judgment.id,
      jobId,
      status: outcome.failed ? "failed" : "done",
      results: outcome.results,
      scores: outcome.scores,
      ...(options.breakdownKeys ? { breakdownKeys: options.breakdownKeys } : {}),
    });
  }

  const sweeper = setInterval(() => {
    strandedJudgments(db, options.strandedAfterMs ?? 60_000)
      .then((ids) => (ids.length > 0 ? sendMonitorJobs(jobs, ids) : undefined))
      .catch(onError);
  }, options.sweepMs ?? 15_000);
  sweeper.unref();

  const loop = startWorkLoop<MonitorJob>(jobs, {
    queue: QUEUES.monitorJudge,
    concurrency: options.concurrency ?? 4,
    handle: (job) => judge(job.id, job.data),
    onError,
  });

  return {
    async stop() {
      clearInterval(sweeper);
      // A judgment cut short throws (aborted): its job fails and is retried under its own id.
      controller.abort();
      await loop.stop();
    },
  };
}
