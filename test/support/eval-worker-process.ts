// An evaluation worker in its own process, for the reliability tests (test/eval-reliability.test.ts):
// they kill it with SIGKILL mid-run and start another. Run with `node --import tsx` (see
// spawnEvalWorker below). Storage comes from the environment as in the CLI (DATABASE_URL, or the
// embedded database in RAGJUDGE_HOME), the LLM roles from OPENAI_BASE_URL / RAGJUDGE_<ROLE>_*, the
// HTTP bot's token from RAGJUDGE_BOT_TOKEN.
//
//   --concurrency N    items at once (default 4)
//   --start FILE       first creates a question set and starts a run from FILE (JSON:
//                      { user, questions: NewQuestion[], request: EvaluationRequest minus
//                      question_set_id }); the embedded database admits one process, so the run
//                      is started by the process that holds it
//   --report-ms N      prints every run's progress every N ms (default 100)
//
// stdout is JSON lines: {"event":"ready"}, {"event":"started","evaluation_id"},
// {"event":"progress","evaluations":[{id,status,completed,total,running}]}. SIGTERM stops cleanly (the
// embedded database is closed and its lock released); SIGKILL is the crash under test.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { configuredClients, loadConfig } from "../../src/config/index.js";
import { startEvaluation, startEvaluationWorker } from "../../src/evals/runs/index.js";
import { startJobs } from "../../src/jobs/index.js";
import {
  createQuestionSet,
  findOrCreateUser,
  llmResponseCache,
  type NewQuestion,
  openStore,
  queryRows,
  storeOptionsFromEnv,
} from "../../src/store/index.js";

/** Short enough that a killed worker's items are retried within seconds. */
export const WORKER_PROCESS_TIMING = { expireInSeconds: 3, heartbeatSeconds: 1 } as const;

export interface StartFile {
  user: string;
  questions: NewQuestion[];
  request: Record<string, unknown>;
}

export interface ProgressLine {
  id: string;
  status: string;
  completed: number;
  total: number;
  /** Items claimed (RUNNING) in the committed state the line was read from. */
  running: number;
}

export type WorkerLine =
  | { event: "ready"; pid: number }
  | { event: "started"; evaluation_id: string }
  | { event: "progress"; evaluations: ProgressLine[] };

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      concurrency: { type: "string", default: "4" },
      start: { type: "string" },
      "report-ms": { type: "string", default: "100" },
    },
  });
  const print = (line: WorkerLine) => process.stdout.write(`${JSON.stringify(line)}\n`);
  const config = await loadConfig({ cwd: "/nonexistent" });
  const store = await openStore(storeOptionsFromEnv());
  const jobs = await startJobs(store, WORKER_PROCESS_TIMING);
  const worker = startEvaluationWorker({
    jobs,
    concurrency: Number(values.concurrency),
    clientsFor: (userId, { noCache }) =>
      configuredClients(config.llm, noCache ? {} : { cache: llmResponseCache(store.db, userId) }),
    ...(process.env.RAGJUDGE_BOT_TOKEN ? { botToken: process.env.RAGJUDGE_BOT_TOKEN } : {}),
    watchMs: 50,
    onError: (error) => console.error(`worker: ${(error as Error)?.message ?? String(error)}`),
  });

  if (values.start) {
    const file = JSON.parse(readFileSync(values.start, "utf8")) as StartFile;
    const user = await findOrCreateUser(store.db, file.user);
    const set = await createQuestionSet(store.db, user.id, { name: "reliability" }, file.questions);
    const row = await startEvaluation(
      { db: store.db, jobs },
      user.id,
      { ...file.request, question_set_id: set.id },
      config,
      { via: "cli" },
    );
    print({ event: "started", evaluation_id: row.id });
  }

  const report = setInterval(() => {
    queryRows<ProgressLine>(
      store.db,
      sql`select e.id, e.status, e.completed_questions as completed, e.total_questions as total,
                 (select count(*)::int from evaluation_results r
                  where r.evaluation_id = e.id and r.status = 'RUNNING') as running
          from evaluations e order by e.gmt_created`,
    )
      .then((evaluations) => print({ event: "progress", evaluations }))
      .catch(() => {});
  }, Number(values["report-ms"]));

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(report);
    await worker.stop();
    await jobs.stop();
    await store.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  print({ event: "ready", pid: process.pid });
}

// --- spawning it from a test --------------------------------------------------------------------

const SCRIPT = new URL(import.meta.url).pathname;
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export interface EvalWorkerProcess {
  pid: number;
  lines: WorkerLine[];
  stderr: () => string;
  /** Resolves with the first line (already printed or still to come) that `match` accepts. */
  waitFor<T extends WorkerLine>(
    match: (line: WorkerLine) => line is T,
    timeoutMs?: number,
  ): Promise<T>;
  waitFor(match: (line: WorkerLine) => boolean, timeoutMs?: number): Promise<WorkerLine>;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
  kill(signal: NodeJS.Signals): void;
}

/** Starts the worker script in a child process; `env` adds to a copy without LLM or database variables. */
export function spawnEvalWorker(args: string[], env: Record<string, string>): EvalWorkerProcess {
  const child = spawn(process.execPath, ["--import", TSX, SCRIPT, ...args], {
    env: {
      ...process.env,
      OPENAI_BASE_URL: "",
      OPENAI_API_KEY: "",
      DATABASE_URL: "",
      RAGJUDGE_HOME: "",
      RAGJUDGE_BOT_TOKEN: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: WorkerLine[] = [];
  const waiters = new Set<(line: WorkerLine) => void>();
  let buffer = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      const text = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
      let line: WorkerLine;
      try {
        line = JSON.parse(text) as WorkerLine;
      } catch {
        continue;
      }
      // Only the latest progress line is kept: a long run prints thousands.
      if (line.event === "progress" && lines.at(-1)?.event === "progress") lines.pop();
      lines.push(line);
      for (const waiter of waiters) waiter(line);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal)),
  );
  const waitFor = (match: (line: WorkerLine) => boolean, timeoutMs = 120_000) =>
    new Promise<WorkerLine>((resolve, reject) => {
      const found = lines.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`worker ${child.pid}: no matching line in ${timeoutMs} ms\n${stderr}`));
      }, timeoutMs);
      const waiter = (line: WorkerLine) => {
        if (!match(line)) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(line);
      };
      waiters.add(waiter);
      void exited.then((how) => {
        if (!waiters.has(waiter)) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        reject(new Error(`worker ${child.pid} exited (${how}) before a matching line\n${stderr}`));
      });
    });
  return {
    pid: child.pid ?? -1,
    lines,
    stderr: () => stderr,
    waitFor: waitFor as EvalWorkerProcess["waitFor"],
    exited,
    kill: (signal) => child.kill(signal),
  };
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
