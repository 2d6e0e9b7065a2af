import { parseArgs } from "node:util";
import { loadConfig, type RagjudgeConfig, workerClients } from "../../config/index.js";
import { startQuestionGenerationWorker } from "../../evals/generation/index.js";
import { startMonitorWorker } from "../../production/index.js";
import {
  type EvaluationActivity,
  evaluationsUpdatedSince,
  sealStoredSecrets,
} from "../../store/index.js";
import { startEvaluationRuntime } from "../evaluation-runtime.js";
import { sessionLoopsConfig } from "../llm-session.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";
import { errorText } from "../../llm/index.js";

export const WORKER_HELP = `Usage: ragjudge worker [options]

Runs queued jobs until stopped (Ctrl-C or SIGTERM): the evaluation launches and items that
\`ragjudge eval --no-worker\` and the HTTP API enqueue, question generations, and the arenas'
comparisons. Any number of workers may serve one PostgreSQL database ($DATABASE_URL); each item's
result is written once.
Without DATABASE_URL it serves the embedded store in $RAGJUDGE_HOME (one process at a time).

Options:
  --concurrency N     items run at once by this process (default: 16)
  --config FILE.json  configuration file (default: ./ragjudge.config.json if present)
  -h, --help          show this help

Logs one line per evaluation state change on stdout.`;

const FINAL = new Set(["COMPLETED", "FAILED", "CANCELLED"]);

/** One log line for a run's new state. */
export function activityLine(run: EvaluationActivity, at: Date = new Date()): string {
  const parts = [
    at.toISOString(),
    `evaluation ${run.id}`,
    run.status,
    `${run.completed_questions}/${run.total_questions}`,
  ];
  if (FINAL.has(run.status) || run.status === "PAUSED") {
    if (run.average_score !== null) parts.push(`average ${run.average_score.toFixed(3)}`);
    parts.push(`errors ${run.bot_error_count + run.judge_error_count}`);
  }
  if (run.status_reason) parts.push(`(${run.status_reason})`);
  parts.push(JSON.stringify(run.name));
  return parts.join("  ");
}

const log = (line: string) => process.stdout.write(`${line}\n`);

export async function workerCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      concurrency: { type: "string", default: "16" },
      config: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${WORKER_HELP}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError("worker takes no positional arguments");
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) {
    throw new UsageError("--concurrency must be an integer from 1 to 1024");
  }
  const loaded = await loadConfig(values.config ? { path: values.config } : {});
  const session = await openStoreSession();
  const config: RagjudgeConfig = {
    ...loaded,
    rag: { ...loaded.rag, loops: sessionLoopsConfig(loaded, session) },
  };
  const stopped = new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  let lastError = "";
  const onError = (error: unknown) => {
    // A failing job is retried by pg-boss; say so once per distinct message, not per retry.
    const message = errorText(error);
    if (message !== lastError) log(`${new Date().toISOString()}  error  ${message}`);
    lastError = message;
  };
  // Secrets stored as given before the operator set RAGJUDGE_SECRET_KEY are encrypted now.
  const sealed = config.secret_key
    ? await sealStoredSecrets(session.store.db, config.secret_key)
    : 0;
  if (sealed > 0) log(`${new Date().toISOString()}  encrypted ${sealed} stored bot secret(s)`);
  const runtime = await startEvaluationRuntime(session, config, {
    worker: true,
    concurrency,
    onError,
  });
  const generation = startQuestionGenerationWorker({
    jobs: runtime.jobs,
    clientsFor: workerClients(session.store.db, config.llm),
    prices: config.prices,
    onError,
  });
  const monitors = startMonitorWorker({
    jobs: runtime.jobs,
    clientsFor: workerClients(session.store.db, config.llm),
    judges: config.judges,
    breakdownKeys: config.production.breakdown_keys,
    onError,
  });
  log(
    `${new Date().toISOString()}  worker started  store ${session.store.location}  concurrency ${concurrency}`,
  );

  // Runs are rows any process may change: poll them and log each one's new status.
  const seen = new Map<string, string>();
  let latest = Date.now();
  const watch = setInterval(() => {
    // A little overlap: a transaction's now() may precede its commit; `seen` drops repeats.
    evaluationsUpdatedSince(session.store.db, new Date(latest - 2000))
      .then((runs) => {
        for (const run of runs) {
          if (seen.get(run.id) !== run.status) log(activityLine(run));
          seen.set(run.id, run.status);
          latest = Math.max(latest, run.gmt_updated.getTime());
        }
      })
      .catch(() => {});
  }, 500);

  const signal = await stopped;
  clearInterval(watch);
  log(`${new Date().toISOString()}  ${signal}: stopping; unfinished items go back to the queue`);
  await generation.stop();
  await monitors.stop();
  await runtime.stop();
  await session.close();
  log(`${new Date().toISOString()}  worker stopped`);
  return 0;
}
