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

/**
 * How deep a reply's values may nest. Structured clone copies recursively, and the receiving
 * thread fails to read a value some 4,000 levels deep ('messageerror', with no request id), so the
 * caller would wait forever. Inputs are limited to 64 levels (text/strict-json.ts); this
 * guards what is already stored.
 */
const MAX_REPLY_DEPTH = 1_000;

/** Whether `value` nests deeper than `limit` arrays and objects; iterative, so it cannot overflow. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  // It runs on every reply: parallel stacks and for-in (no tuple or Object.values array per
  // node) keep it near 5% of what the structured clone of a page of records costs.
  const items: object[] = [];
  const depths: number[] = [];
  const visit = (child: unknown, depth: number) => {
    if (child !== null && typeof child === "object") {
      items.push(child);
      depths.push(depth);
    }
  };
  visit(value, 0);
  while (items.length > 0) {
    const item = items.pop() as object;
    const depth = depths.pop() as number;
    if (ArrayBuffer.isView(item)) continue; // bytea: bytes, not nesting
    if (depth >= limit) return true;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) visit(item[i], depth + 1);
    } else {
      for (const key in item) visit((item as Record<string, unknown>)[key], depth + 1);
    }
  }
  return false;
}

function replyError(id: number, message: string): HostReply {
  return { id, ok: false, error: { name: "Error", message, fields: {} } };
}

/**
 * Posts a reply, or an error in its place when it cannot reach the other thread: every request
 * gets an answer, never a silence that leaves its caller waiting.
 */
function reply(message: HostReply): void {
  if (message.ok && nestsDeeperThan(message.result, MAX_REPLY_DEPTH + 3)) {
    // +3: the result's own rows array, a row, its fields.
    port.postMessage(
      replyError(
        message.id,
        `the database thread could not send its reply: a value nests deeper than ${MAX_REPLY_DEPTH} levels`,
      ),
    );
    return;
  }
  try {
    port.postMessage(message);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    port.postMessage(
      replyError(message.id, `the database thread could not send its reply: ${reason}`),
    );
  }
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
    reply({ id: 0, ok: false, error: wireError(error) });
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
      (result) => reply({ id: request.id, ok: true, result }),
      (error: unknown) => reply({ id: request.id, ok: false, error: wireError(error) }),
    );
  });
  reply({ id: 0, ok: true, result: null });
}

await main();
