// `npm run bench -- ingest [--seconds N] [--rate N] [--store embedded|postgres]`: production
// answers through OpenTelemetry into `ragjudge serve` (issue 24 §6). The real `serve` (the bundled
// CLI) on the embedded store, or on a PostgreSQL server of its own with `serve --no-worker` and two
// `ragjudge worker` processes; load generators in processes of their own (bench/ingest-client.ts:
// the OTel Node SDK, the OTLP/protobuf exporter, OpenInference's OpenAI instrumentation calling
// the scripted LLM server in its own process). Reported: answers/s stored, every answer gated,
// p50/p99 export latency, lost traces, CPU per answer by process (and serve's main thread against
// its other threads, PGlite's among them), bytes per stored answer.

import { type ChildProcess, fork, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { openStore, queryRows, type Store } from "../src/store/index.js";
import {
  createDatabase,
  freePort,
  type PostgresServer,
  startPostgresServer,
} from "../test/support/postgres-server.js";
import { startScriptedLlmProcess } from "../test/support/scripted-llm.js";
import {
  INGEST_ANSWER,
  type IngestClientOptions,
  type IngestClientReport,
} from "./ingest-client.js";

const CLI = fileURLToPath(new URL("../bin/ragjudge.js", import.meta.url));
const CLIENT = fileURLToPath(new URL("./ingest-client.ts", import.meta.url));
const TICKS_PER_SECOND = 100; // USER_HZ on Linux
/** Exports started in the first 3 s are not timed (they are counted, stored and checked). */
const WARMUP_MS = 3_000;

export interface IngestBenchOptions {
  store: "embedded" | "postgres";
  seconds: number;
  /** Answers a second asked of all clients together. */
  rate: number;
  clients: number;
  workers: number;
}

export interface IngestBenchResult {
  store: string;
  seconds: number;
  rate_asked: number;
  emitted: number;
  stored: number;
  gated: number;
  rejected: number;
  failed_llm_calls: number;
  lost: number;
  answers_per_s: number;
  export_p50_ms: number;
  export_p99_ms: number;
  export_max_ms: number;
  failed_exports: number;
  client_behind: number;
  cpu_ms_per_answer: number;
  cpu_by_process_ms_per_answer: Record<string, number>;
  bytes_per_answer: number;
  load_before: number;
  load_after: number;
}

/** utime + stime of a process (or one of its threads), in milliseconds. */
function cpuMsOf(statPath: string): number {
  try {
    const stat = readFileSync(statPath, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** A process's CPU split into its main thread and the rest of its threads. */
function threadsCpuMs(pid: number): { main: number; other: number } {
  let main = 0;
  let other = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const ms = cpuMsOf(`/proc/${pid}/task/${tid}/stat`);
      if (Number(tid) === pid) main += ms;
      else other += ms;
    }
  } catch {
    // exited
  }
  return { main, other };
}

/** Every process of a PostgreSQL server: the postmaster (by its data dir's pid file) and children. */
function postgresPids(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const pids = [postmaster];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === postmaster) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

function spawnCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, OPENAI_BASE_URL: "", OPENAI_API_KEY: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function waitForOutput(child: ChildProcess, pattern: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${text}`)), 120_000);
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`${what} exited ${code}:\n${text}`)));
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);

export async function benchIngest(options: IngestBenchOptions): Promise<IngestBenchResult> {
  const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-ingest-"));
  const llm = await startScriptedLlmProcess({ replies: [{ reply: { content: INGEST_ANSWER } }] });
  let postgres: PostgresServer | undefined;
  let databaseUrl = "";
  if (options.store === "postgres") {
    postgres = await startPostgresServer();
    databaseUrl = await createDatabase(postgres.url, "ingest", { empty: true });
  }
  const env = { RAGJUDGE_HOME: home, DATABASE_URL: databaseUrl };
  const port = await freePort();
  const serve = spawnCli(
    ["serve", "--port", String(port), ...(options.store === "postgres" ? ["--no-worker"] : [])],
    env,
  );
  const workers: ChildProcess[] = [];
  try {
    await waitForOutput(serve, /\/login\?code=/, "ragjudge serve");
    for (let i = 0; i < (options.store === "postgres" ? options.workers : 0); i++) {
      const worker = spawnCli(["worker"], env);
      workers.push(worker);
    }
    const token = readFileSync(join(home, "token"), "utf8").trim();
    const serverUrl = `http://127.0.0.1:${port}`;
    const llmPid = llm.pid;
    const pgDataDir = postgres?.dataDir;

    const clients = Array.from({ length: options.clients }, () =>
      fork(CLIENT, [], { execArgv: ["--import", import.meta.resolve("tsx")], stdio: "inherit" }),
    );
    // Workers and clients start before the clock: their start-up is not the ingest's cost.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const loadBefore = loadavg()[0] ?? 0;
    const serveBefore = threadsCpuMs(serve.pid as number);
    const workersBefore = workers.reduce((sum, w) => sum + cpuMsOf(`/proc/${w.pid}/stat`), 0);
    const llmBefore = llmPid ? cpuMsOf(`/proc/${llmPid}/stat`) : 0;
    const pgBefore = pgDataDir
      ? postgresPids(pgDataDir).reduce((sum, pid) => sum + cpuMsOf(`/proc/${pid}/stat`), 0)
      : 0;
    const started = performance.now();
    const reports = await Promise.all(
      clients.map(
        (client) =>
          new Promise<IngestClientReport>((resolve, reject) => {
            client.once("message", (report: IngestClientReport) => resolve(report));
            client.once("exit", (code) => code !== 0 && reject(new Error(`client exited ${code}`)));
            const clientOptions: IngestClientOptions = {
              serverUrl,
              token,
              llmBaseUrl: llm.baseUrl,
              rate: options.rate / options.clients,
              seconds: options.seconds,
              concurrency: 512,
              warmupMs: WARMUP_MS,
            };
            client.send(clientOptions);
          }),
      ),
    );
    const wallS = (performance.now() - started) / 1000;
    const serveAfter = threadsCpuMs(serve.pid as number);
    const workersAfter = workers.reduce((sum, w) => sum + cpuMsOf(`/proc/${w.pid}/stat`), 0);
    const llmAfter = llmPid ? cpuMsOf(`/proc/${llmPid}/stat`) : 0;
    const pgAfter = pgDataDir
      ? postgresPids(pgDataDir).reduce((sum, pid) => sum + cpuMsOf(`/proc/${pid}/stat`), 0)
      : 0;
    const loadAfter = loadavg()[0] ?? 0;

    await stop(serve);
    await Promise.all(workers.map(stop));
    const store = await openStore(databaseUrl ? { databaseUrl } : { home });
    let counts: { stored: number; gated: number; rejected: number; pending: number; bytes: number };
    try {
      counts = await countStored(store);
    } finally {
      await store.close();
    }

    const emitted = reports.reduce((sum, r) => sum + r.emitted, 0);
    const exportMs = reports.flatMap((r) => r.exportMs).sort((a, b) => a - b);
    const cpu: Record<string, number> = {
      "serve: main thread (HTTP, OTLP decode, assembly, gate, SQL client)":
        serveAfter.main - serveBefore.main,
      [`serve: other threads (${options.store === "embedded" ? "PGlite, " : ""}GC, libuv)`]:
        serveAfter.other - serveBefore.other,
      ...(options.store === "postgres"
        ? {
            "PostgreSQL server": pgAfter - pgBefore,
            [`${options.workers} workers`]: workersAfter - workersBefore,
          }
        : {}),
      "clients: OTel SDK, exporter, OpenAI client + instrumentation": reports.reduce(
        (sum, r) => sum + r.cpuMs,
        0,
      ),
      "scripted LLM server": llmAfter - llmBefore,
    };
    const answers = Math.max(1, counts.stored);
    const perAnswer = Object.fromEntries(
      Object.entries(cpu).map(([name, ms]) => [name, Number((ms / answers).toFixed(3))]),
    );
    const ragjudgeCpu =
      (cpu[Object.keys(cpu)[0] as string] ?? 0) +
      (cpu[Object.keys(cpu)[1] as string] ?? 0) +
      (options.store === "postgres" ? pgAfter - pgBefore + (workersAfter - workersBefore) : 0);
    return {
      store:
        options.store === "embedded"
          ? "embedded (PGlite)"
          : `PostgreSQL + ${options.workers} workers`,
      seconds: Number(wallS.toFixed(1)),
      rate_asked: options.rate,
      emitted,
      stored: counts.stored,
      gated: counts.gated,
      rejected: counts.rejected,
      // Every answer whose trace the exporter delivered must be a record; a trace whose LLM call
      // failed is rejected (no answer), which is right, and counted apart.
      failed_llm_calls: reports.reduce((sum, r) => sum + r.failedAnswers, 0),
      lost: emitted - counts.stored,
      answers_per_s: Math.round(counts.stored / wallS),
      export_p50_ms: Number(percentile(exportMs, 0.5).toFixed(1)),
      export_p99_ms: Number(percentile(exportMs, 0.99).toFixed(1)),
      export_max_ms: Number((exportMs.at(-1) ?? 0).toFixed(1)),
      failed_exports: reports.reduce((sum, r) => sum + r.failedExports, 0),
      client_behind: reports.reduce((sum, r) => sum + r.behind, 0),
      cpu_ms_per_answer: Number((ragjudgeCpu / answers).toFixed(3)),
      cpu_by_process_ms_per_answer: perAnswer,
      bytes_per_answer: Math.round(counts.bytes / answers),
      load_before: Number(loadBefore.toFixed(1)),
      load_after: Number(loadAfter.toFixed(1)),
    };
  } finally {
    await stop(serve);
    await Promise.all(workers.map(stop));
    await llm.close();
    await postgres?.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

async function countStored(store: Store) {
  const [row] = await queryRows<{
    stored: number;
    gated: number;
    rejected: number;
    pending: number;
    bytes: string;
  }>(
    store.db,
    sql`select
      (select count(*)::int from answer_records) as stored,
      (select count(*)::int from answer_records
        where gate_status in ('pass', 'partial', 'fail') and jsonb_array_length(checks) > 0) as gated,
      (select count(*)::int from rejected_traces) as rejected,
      (select count(distinct trace_id)::int from pending_spans) as pending,
      (select coalesce(sum(pg_total_relation_size(i.inhrelid)), 0)
        from pg_inherits i where i.inhparent = 'answer_records'::regclass)
        + pg_total_relation_size('answer_keys') as bytes`,
  );
  return {
    stored: row?.stored ?? 0,
    gated: row?.gated ?? 0,
    rejected: row?.rejected ?? 0,
    pending: row?.pending ?? 0,
    bytes: Number(row?.bytes ?? 0),
  };
}
