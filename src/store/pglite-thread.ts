import { Worker } from "node:worker_threads";

/**
 * The embedded database on its own thread. PGlite runs PostgreSQL as WebAssembly in the calling
 * thread: in an evaluation worker it took about half of the main thread's CPU (the WebAssembly and
 * PGlite's protocol code), so every LLM response and socket event waited behind it. Here PGlite
 * lives in a worker thread (pglite-host.ts) and this proxy speaks the subset of PGlite's API that
 * drizzle, pg-boss's adapter and our raw queries use: query, exec, transaction, close.
 */

export interface HostInit {
  startParams: string[];
  dataDir?: string;
  loadDataDir?: ArrayBuffer;
  migrate: boolean;
}

type RowMode = "array" | "object";
export type HostRequest = { id: number } & (
  | {
      op: "query";
      text: string;
      params: unknown[];
      rowMode: RowMode;
      rawTypes: number[];
      tx?: number;
    }
  | { op: "exec"; text: string; tx?: number }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "close" }
);
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Request = DistributiveOmit<HostRequest, "id">;

export interface Field {
  name: string;
  dataTypeID: number;
}
export interface Results<T = Record<string, unknown>> {
  rows: T[];
  fields: Field[];
  affectedRows?: number;
}
export type HostResult = Results<unknown> | Results<unknown>[] | number | null;
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}
export type HostReply =
  { id: number; ok: true; result: HostResult } | { id: number; ok: false; error: WireError };

export interface QueryOptions {
  rowMode?: RowMode;
  /** Per type OID, applied here to the value PostgreSQL sent as text (drizzle passes these). */
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

export interface PgliteQueries {
  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
}

export interface PgliteTransaction extends PgliteQueries {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

export interface PgliteThread extends PgliteQueries {
  transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A PostgreSQL error from the thread: its message, and fields such as `code` and `constraint`. */
export class PgliteThreadError extends Error {
  constructor(wire: WireError) {
    super(wire.message);
    this.name = wire.name;
    Object.assign(this, wire.fields);
    // The database thread's stack says where PostgreSQL was called; this one where we were.
    if (wire.stack) this.stack = `${this.stack ?? ""}\n    (database thread) ${wire.stack}`;
  }
}

const THREAD_YOUNG_GENERATION_MB = 12;

/** Starts the database thread: opens (or creates) the data directory and migrates it. */
export async function startPgliteThread(options: {
  startParams: string[];
  dataDir?: string;
  loadDataDir?: Blob;
  migrate: boolean;
}): Promise<PgliteThread> {
  const init: HostInit = {
    startParams: options.startParams,
    migrate: options.migrate,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: await options.loadDataDir.arrayBuffer() } : {}),
  };
  // From source (tsx, vitest) the host is TypeScript and needs tsx's loader in its thread too.
  const fromSource = import.meta.url.endsWith(".ts");
  // Beside this module: compiled in dist/store/, or bundled in dist/cli/ (scripts/bundle-cli.mjs).
  const host = new URL(fromSource ? "./pglite-host.ts" : "./pglite-host.js", import.meta.url);
  // None of the process's node options: the thread needs none (V8's flags are the process's
  // anyway), and a thread refuses some that a user may give, e.g. `--max-old-space-size`
  // (ERR_WORKER_INVALID_EXEC_ARGV) or `--input-type` (ERR_INPUT_TYPE_NOT_ALLOWED).
  const workerOptions = {
    workerData: init,
    ...(init.loadDataDir ? { transferList: [init.loadDataDir] } : {}),
    execArgv: [],
    // The thread keeps about 16 MB live, and its garbage (each reply's rows) dies young. V8's
    // default young generation (three 16 MB semi-spaces) kept 55-60 MB committed through a
    // `ragjudge eval`; 4 MB semi-spaces hold the same work.
    resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
  };
  const worker = fromSource
    ? // Node 20 does not apply --import loaders to worker threads: register tsx's in the thread.
      new Worker(
        `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
          .then(({ register }) => { register(); return import(${JSON.stringify(host.href)}); });`,
        { ...workerOptions, eval: true },
      )
    : new Worker(host, workerOptions);

  const pending = new Map<
    number,
    { resolve(result: HostResult): void; reject(error: Error): void }
  >();
  let nextId = 1;
  let dead: Error | undefined;
  const failAll = (error: Error) => {
    dead ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  let ready!: { resolve(): void; reject(error: Error): void };
  const started = new Promise<void>((resolve, reject) => (ready = { resolve, reject }));
  worker.on("message", (reply: HostReply) => {
    if (reply.id === 0) {
      if (reply.ok) ready.resolve();
      else ready.reject(new PgliteThreadError(reply.error));
      return;
    }
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(new PgliteThreadError(reply.error));
  });
  // A reply this thread could not read carries no id we can see: fail the calls in flight
  // rather than leave one waiting forever (the host keeps its replies within reach, see reply()).
  worker.on("messageerror", (error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  });
  worker.on("error", (error) => {
    ready.reject(error);
    failAll(error);
  });
  worker.on("exit", (code) => {
    const error = new Error(`the database thread exited (code ${code})`);
    ready.reject(error);
    failAll(error);
  });
  try {
    await started;
  } catch (error) {
    await worker.terminate();
    throw error;
  }

  function call(request: Request): Promise<HostResult> {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      try {
        worker.postMessage({ ...request, id });
      } catch (error) {
        // Parameters structured clone cannot copy: the request never left, so nothing will answer.
        pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  function queriesOn(tx?: number): PgliteQueries {
    const on = tx === undefined ? {} : { tx };
    return {
      async query<T>(text: string, params: unknown[] = [], options: QueryOptions = {}) {
        const parsers = options.parsers ?? {};
        const result = (await call({
          op: "query",
          text,
          params,
          rowMode: options.rowMode ?? "object",
          rawTypes: Object.keys(parsers).map(Number),
          ...on,
        })) as Results<T>;
        return applyParsers(result, parsers, options.rowMode ?? "object");
      },
      async exec(text: string) {
        return (await call({ op: "exec", text, ...on })) as Results[];
      },
    };
  }

  return {
    ...queriesOn(),
    async transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
      const id = (await call({ op: "begin" })) as number;
      let closed = false;
      const queries = queriesOn(id);
      const tx: PgliteTransaction = {
        query: (text, params, options) => {
          if (closed) return Promise.reject(new Error("Transaction is closed"));
          return queries.query(text, params, options);
        },
        exec: (text) => {
          if (closed) return Promise.reject(new Error("Transaction is closed"));
          return queries.exec(text);
        },
        async rollback() {
          if (closed) throw new Error("Transaction is closed");
          closed = true;
          await call({ op: "end", tx: id, commit: false });
        },
        get closed() {
          return closed;
        },
      };
      try {
        const result = await fn(tx);
        if (!closed) {
          closed = true;
          await call({ op: "end", tx: id, commit: true });
        }
        return result;
      } catch (error) {
        if (!closed) {
          closed = true;
          await call({ op: "end", tx: id, commit: false }).catch(() => {});
        }
        throw error;
      }
    },
    async close() {
      if (!dead) await call({ op: "close" }).catch(() => {});
      dead ??= new Error("the database is closed");
      await worker.terminate();
    },
  };
}

/** PGlite applies parsers to text values; the thread left these types as text for us to. */
function applyParsers<T>(
  result: Results<T>,
  parsers: NonNullable<QueryOptions["parsers"]>,
  rowMode: RowMode,
): Results<T> {
  const parsed = result.fields.flatMap((field, index) => {
    const parser = parsers[field.dataTypeID];
    return parser ? [{ parser, index, field }] : [];
  });
  if (parsed.length === 0) return result;
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const { parser, index, field } of parsed) {
      const key = rowMode === "array" ? index : field.name;
      const value = row[key];
      if (typeof value === "string") row[key] = parser(value, field.dataTypeID);
    }
  }
  return result;
}
