import { Worker } from "node:worker_threads";
import { formatBytes, PARSE_LIMITS, type ParseLimits } from "./limits.js";
import type { ParseJob, ParseOutcome } from "./parse-job.js";

// Uploads are read on their own thread, one file at a time, never on the thread that answers
// requests: a file that is slow to read (or a parser with a quadratic corner) delays only the
// uploads queued behind it, and one that passes a limit is refused by name while the thread is
// replaced. The limits (limits.ts): wall time per file; the thread's heap; and the process's
// resident memory, watched from here, because what PDF.js inflates lives in ArrayBuffers that the
// heap limit does not count. One thread at a time keeps that watch about one file.
// The mechanism serves any module that reads uploads (`parseThread`): documents here
// (parse-host.ts), question files in evals/questions.

/** What a thread module receives, and what it answers (a failure's own fields travel along). */
export type ThreadRequest<Job> = { id: number; job: Job };
export type ThreadReply<Outcome> =
  | { id: number; ok: true; outcome: Outcome }
  | { id: number; ok: false; error: { name: string; message: string; [field: string]: unknown } };

/** The limits a thread's job runs under (limits.ts). */
export type ThreadLimits = Pick<ParseLimits, "timeMs" | "heapMb" | "memoryGrowthBytes">;

/** A file passed a limit of the parse thread; `message` says which, for the file's problem. */
export class ParseLimitError extends Error {
  override readonly name = "ParseLimitError";
  constructor(
    readonly limit: "time" | "memory",
    message: string,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is ParseLimitError {
    return error instanceof Error && error.name === "ParseLimitError";
  }
}

/** An idle thread is ended after this long (PDF.js keeps ~50 MB alive in it). */
const IDLE_MS = 30_000;
/** How often the resident memory is read while a file is parsed. */
const MEMORY_WATCH_MS = 50;

/** `./name.ts` from source, `./name.js` compiled or bundled: beside the module at `callerUrl`. */
export function threadModuleUrl(callerUrl: string, name: string): URL {
  return new URL(`./${name}${callerUrl.endsWith(".ts") ? ".ts" : ".js"}`, callerUrl);
}

/**
 * A queue of jobs run one at a time on a thread of `module` (which answers each ThreadRequest
 * with a ThreadReply): started when needed, replaced after a job passes a limit, ended when idle.
 * Returns the function that queues a job; `transfer` moves buffers to the thread.
 */
export function parseThread<Job, Outcome>(module: URL) {
  interface Task {
    job: Job;
    limits: ThreadLimits;
    transfer: ArrayBuffer[];
    resolve(outcome: Outcome): void;
    reject(error: unknown): void;
  }
  const queue: Task[] = [];
  let running = false;
  let thread: { worker: Worker; heapMb: number } | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    clearTimeout(idleTimer);
    try {
      for (let task = queue.shift(); task; task = queue.shift()) {
        try {
          task.resolve(await runOnThread(task));
        } catch (error) {
          task.reject(error);
        }
      }
    } finally {
      running = false;
      const idle = thread;
      if (idle) {
        // An idle thread must not keep a finished command's process alive.
        idle.worker.unref();
        idleTimer = setTimeout(() => {
          if (thread !== idle || running) return;
          thread = undefined;
          void idle.worker.terminate();
        }, IDLE_MS).unref();
      }
    }
  }

  function runOnThread({ job, limits, transfer }: Task): Promise<Outcome> {
    if (thread && thread.heapMb !== limits.heapMb) {
      void thread.worker.terminate();
      thread = undefined;
    }
    thread ??= { worker: startThread(module, limits.heapMb), heapMb: limits.heapMb };
    const { worker } = thread;
    worker.ref();
    const id = nextId++;
    const baseline = process.memoryUsage.rss();
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        clearInterval(watch);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      const fail = (error: Error) => {
        settle();
        if (thread?.worker === worker) thread = undefined;
        void worker.terminate();
        reject(error);
      };
      const timer = setTimeout(
        () =>
          fail(
            new ParseLimitError(
              "time",
              `took longer than ${limits.timeMs / 1000} s to read (the limit per file)`,
            ),
          ),
        limits.timeMs,
      );
      const watch = setInterval(() => {
        if (process.memoryUsage.rss() - baseline > limits.memoryGrowthBytes) {
          fail(
            new ParseLimitError(
              "memory",
              `needed more than ${formatBytes(limits.memoryGrowthBytes)} of memory to read (the limit per file)`,
            ),
          );
        }
      }, MEMORY_WATCH_MS);
      const onMessage = (reply: ThreadReply<Outcome>) => {
        if (reply.id !== id) return;
        settle();
        if (reply.ok) resolve(reply.outcome);
        else reject(Object.assign(new Error(reply.error.message), reply.error));
      };
      const onError = (error: Error & { code?: string }) =>
        fail(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new ParseLimitError(
                "memory",
                `needed more than ${limits.heapMb} MiB of heap to read (the limit per file)`,
              )
            : error,
        );
      const onExit = (code: number) => fail(new Error(`the parse thread exited (code ${code})`));
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage({ id, job } satisfies ThreadRequest<Job>, transfer);
    });
  }

  return function run(
    job: Job,
    limits: ThreadLimits,
    transfer: ArrayBuffer[] = [],
  ): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      queue.push({ job, limits, transfer, resolve, reject });
      void drain();
    });
  };
}

function startThread(module: URL, heapMb: number): Worker {
  const options = {
    // None of the process's node options: a thread refuses some a user may give.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  };
  // From source (tsx, vitest) the module is TypeScript and needs tsx's loader in its thread too;
  // Node 20 does not apply --import loaders to worker threads, so it is registered there.
  return module.pathname.endsWith(".ts")
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
          .then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`,
        { ...options, eval: true },
      )
    : new Worker(module, options);
}

// Beside this module: compiled in dist/rag/ingest/, or bundled in dist/cli/.
const documentThread = parseThread<ParseJob, ParseOutcome>(
  threadModuleUrl(import.meta.url, "parse-host"),
);

/** Reads one file on the parse thread, after the files queued before it. */
export function parseOffThread(
  job: ParseJob,
  limits: ParseLimits = PARSE_LIMITS,
): Promise<ParseOutcome> {
  // The thread gets its own copy: a Buffer may share its memory with others.
  const bytes = new Uint8Array(job.bytes);
  return documentThread({ ...job, bytes }, limits, [bytes.buffer]);
}
