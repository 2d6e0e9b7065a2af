import { Worker } from "node:worker_threads";
import { formatBytes, PARSE_LIMITS, type ParseLimits } from "./limits.js";
import type { HostReply, HostRequest } from "./parse-host.js";
import type { ParseJob, ParseOutcome } from "./parse-job.js";

// Uploads are read on their own thread, one file at a time, never on the thread that answers
// requests: a file that is slow to read (or a parser with a quadratic corner) delays only the
// uploads queued behind it, and one that passes a limit is refused by name while the thread is
// replaced. The limits (limits.ts): wall time per file; the thread's heap; and the process's
// resident memory, watched from here, because what PDF.js inflates lives in ArrayBuffers that the
// heap limit does not count. One thread at a time keeps that watch about one file.

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

interface Task {
  job: ParseJob;
  limits: ParseLimits;
  resolve(outcome: ParseOutcome): void;
  reject(error: unknown): void;
}

/** An idle thread is ended after this long (PDF.js keeps ~50 MB alive in it). */
const IDLE_MS = 30_000;
/** How often the resident memory is read while a file is parsed. */
const MEMORY_WATCH_MS = 50;

const queue: Task[] = [];
let running = false;
let thread: { worker: Worker; heapMb: number } | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 1;

/** Reads one file on the parse thread, after the files queued before it. */
export function parseOffThread(
  job: ParseJob,
  limits: ParseLimits = PARSE_LIMITS,
): Promise<ParseOutcome> {
  return new Promise((resolve, reject) => {
    queue.push({ job, limits, resolve, reject });
    void drain();
  });
}

async function drain(): Promise<void> {
  if (running) return;
  running = true;
  clearTimeout(idleTimer);
  try {
    for (let task = queue.shift(); task; task = queue.shift()) {
      try {
        task.resolve(await runOnThread(task.job, task.limits));
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

function startThread(heapMb: number): Worker {
  // From source (tsx, vitest) the host is TypeScript and needs tsx's loader in its thread too.
  const fromSource = import.meta.url.endsWith(".ts");
  // Beside this module: compiled in dist/rag/ingest/, or bundled in dist/cli/.
  const host = new URL(fromSource ? "./parse-host.ts" : "./parse-host.js", import.meta.url);
  const options = {
    // None of the process's node options: a thread refuses some a user may give.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  };
  return fromSource
    ? // Node 20 does not apply --import loaders to worker threads: register tsx's in the thread.
      new Worker(
        `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
          .then(({ register }) => { register(); return import(${JSON.stringify(host.href)}); });`,
        { ...options, eval: true },
      )
    : new Worker(host, options);
}

function runOnThread(job: ParseJob, limits: ParseLimits): Promise<ParseOutcome> {
  if (thread && thread.heapMb !== limits.heapMb) {
    void thread.worker.terminate();
    thread = undefined;
  }
  thread ??= { worker: startThread(limits.heapMb), heapMb: limits.heapMb };
  const { worker } = thread;
  worker.ref();
  const id = nextId++;
  // The thread gets its own copy: a Buffer may share its memory with others.
  const bytes = new Uint8Array(job.bytes);
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
    const onMessage = (reply: HostReply) => {
      if (reply.id !== id) return;
      settle();
      if (reply.ok) resolve(reply.outcome);
      else reject(new Error(reply.message));
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
    worker.postMessage({ id, job: { ...job, bytes } } satisfies HostRequest, [bytes.buffer]);
  });
}
