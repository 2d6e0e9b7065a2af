import { parentPort } from "node:worker_threads";
import { type ParseJob, type ParseOutcome, runParseJob } from "./parse-job.js";

// The parse thread's module (started by parse-thread.ts): reads one file at a time.

export type HostRequest = { id: number; job: ParseJob };
export type HostReply =
  { id: number; ok: true; outcome: ParseOutcome } | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error("parse-host.ts runs as a worker thread only");
port.on("message", ({ id, job }: HostRequest) => {
  runParseJob(job).then(
    (outcome) => port.postMessage({ id, ok: true, outcome } satisfies HostReply),
    (error: unknown) =>
      port.postMessage({ id, ok: false, message: (error as Error).message } satisfies HostReply),
  );
});
