// An evaluation worker in its own process, for the reliability tests (test/eval-reliability.test.ts,
// test/db-restart.test.ts): they kill it with SIGKILL mid-run and start another. The process runs
// eval-worker-main.mjs on the built code (see there); this file spawns it and reads its lines.
// Storage comes from the environment as in the CLI (DATABASE_URL, or the embedded database in
// RAGJUDGE_HOME), the LLM roles from OPENAI_BASE_URL / RAGJUDGE_<ROLE>_*, the HTTP bot's token
// from RAGJUDGE_BOT_TOKEN. Its arguments:
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
import { fileURLToPath } from "node:url";
import type { NewQuestion } from "../../src/store/index.js";

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

// --- spawning it from a test --------------------------------------------------------------------

const SCRIPT = fileURLToPath(new URL("./eval-worker-main.mjs", import.meta.url));
const TIMING_ARGS = [
  "--expire-seconds",
  String(WORKER_PROCESS_TIMING.expireInSeconds),
  "--heartbeat-seconds",
  String(WORKER_PROCESS_TIMING.heartbeatSeconds),
];

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
  const child = spawn(process.execPath, [SCRIPT, ...TIMING_ARGS, ...args], {
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
