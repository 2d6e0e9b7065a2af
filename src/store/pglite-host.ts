// The database thread's entry (see pglite-thread.ts): owns the PGlite instance and answers the
// main thread's requests, one message each.
import { parentPort, workerData } from "node:worker_threads";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { createPglite } from "./migrate.js";
import type { HostInit, HostReply, HostRequest, HostResult, WireError } from "./pglite-thread.js";

if (!parentPort) throw new Error("pglite-host runs as a worker thread (see pglite-thread.ts)");
const port = parentPort;
const init = workerData as HostInit;

/** The error's PostgreSQL fields (code, constraint, …) survive the trip; its class does not. */
const ERROR_FIELDS = [
  "code",
  "severity",
  "detail",
  "hint",
  "position",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "routine",
] as const;

function wireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const key of ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (value !== undefined) fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

const identity = (value: unknown) => value;
/** Thrown inside PGlite's transaction callback to make it roll back. */
const ROLLBACK = Symbol("rollback");

interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean): void;
  done: Promise<void>;
}

async function main(): Promise<void> {
  let pg: PGlite;
  try {
    pg = await createPglite({
      startParams: init.startParams,
      migrate: init.migrate,
      ...(init.dataDir ? { dataDir: init.dataDir } : {}),
      ...(init.loadDataDir ? { loadDataDir: new Blob([init.loadDataDir]) } : {}),
    });
  } catch (error) {
    port.postMessage({ id: 0, ok: false, error: wireError(error) } satisfies HostReply);
    return;
  }
  const transactions = new Map<number, OpenTransaction>();
  let nextTransaction = 1;

  async function begin(): Promise<number> {
    let end: (commit: boolean) => void = () => {};
    const ended = new Promise<boolean>((resolve) => (end = resolve));
    let started: (tx: Transaction) => void = () => {};
    const ready = new Promise<Transaction>((resolve) => (started = resolve));
    const done = pg
      .transaction(async (tx) => {
        started(tx);
        if (!(await ended)) throw ROLLBACK;
      })
      .then(
        () => {},
        (error: unknown) => {
          if (error !== ROLLBACK) throw error;
        },
      );
    // BEGIN itself may fail, and then the callback never runs.
    const tx = await Promise.race([
      ready,
      done.then(() => Promise.reject(new Error("the transaction did not start"))),
    ]);
    const id = nextTransaction++;
    transactions.set(id, { tx, end, done });
    return id;
  }

  function target(request: { tx?: number }): PGlite | Transaction {
    if (request.tx === undefined) return pg;
    const open = transactions.get(request.tx);
    if (!open) throw new Error("the transaction is closed");
    return open.tx;
  }

  async function handle(request: HostRequest): Promise<HostResult> {
    switch (request.op) {
      case "query": {
        const parsers = Object.fromEntries(request.rawTypes.map((type) => [type, identity]));
        const result = await target(request).query(request.text, request.params, {
          rowMode: request.rowMode,
          parsers,
        });
        return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
      }
      case "exec": {
        const results = await target(request).exec(request.text);
        return results.map(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }));
      }
      case "begin":
        return begin();
      case "end": {
        const open = transactions.get(request.tx);
        if (!open) throw new Error("the transaction is closed");
        transactions.delete(request.tx);
        open.end(request.commit);
        await open.done;
        return null;
      }
      case "close":
        await pg.close();
        return null;
    }
  }

  port.on("message", (request: HostRequest) => {
    handle(request).then(
      (result) => port.postMessage({ id: request.id, ok: true, result } satisfies HostReply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          ok: false,
          error: wireError(error),
        } satisfies HostReply),
    );
  });
  port.postMessage({ id: 0, ok: true, result: null } satisfies HostReply);
}

await main();
