import { parentPort } from "node:worker_threads";
import { type ParseJob, type ParseOutcome, runParseJob } from "./parse-job.js";
import type { ThreadReply, ThreadRequest } from "./parse-thread.js";

// The parse thread's module for documents (started by parse-thread.ts): reads one file at a time.

const port = parentPort;
if (!port) throw new Error("parse-host.ts runs as a worker thread only");
port.on("message", ({ id, job }: ThreadRequest<ParseJob>) => {
  runParseJob(job).then(
    (outcome) => port.postMessage({ id, ok: true, outcome } satisfies ThreadReply<ParseOutcome>),
    (error: Error) =>
      port.postMessage({
        id,
        ok: false,
        error: { name: error.name, message: error.message },
      } satisfies ThreadReply<ParseOutcome>),
  );
});
