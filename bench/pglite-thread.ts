// Is PGlite's own thread (store/pglite-thread.ts) worth its code? Issue 15 §1.8. The same server as
// `ragjudge start` runs it, in one process: the embedded store on disk, the evaluation worker, and
// the HTTP API, with PGlite either on its own thread (the default) or on the calling thread. A run
// of the built-in bot + rubric + reference judges (4 LLM calls per question) goes against the
// scripted LLM server (its own process) answering in 300-800 ms, at 16 and at 64 items at once.
// Measured while the run goes:
// - the run's wall time against the ideal (questions x 3 critical-path calls x mean latency /
//   concurrency);
// - the main thread's event-loop delay (perf_hooks monitorEventLoopDelay) and busy share;
// - from another process, as a browser sees it: GET /api/v1/health (no database) every 50 ms,
//   GET /api/v1/evaluations/:id (one read) every 200 ms, and the gaps between the SSE stream's
//   progress events (the stream polls every 500 ms).
// Each mode runs in its own child process (compiled, plain node, as bin/ragjudge.js runs).

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { configuredClients } from "../src/config/index.js";
import { startEvaluation, startEvaluationWorker } from "../src/evals/runs/index.js";
import { tuneHeapGrowth } from "../src/cli/heap.js";
import { startJobs } from "../src/jobs/index.js";
import { createBuiltinBot } from "../src/rag/index.js";
import { createApp, listen } from "../src/server/index.js";
import {
  createApiToken,
  createQuestionSet,
  findOrCreateUser,
  getEvaluation,
  openStore,
} from "../src/store/index.js";
import { startScriptedLlmProcess } from "../test/support/scripted-llm.js";
import {
  benchRunConfig,
  compileBench,
  createHome,
  peakRssMbOfThisProcess,
  UNIVERSAL_REPLY,
} from "./evaluations.js";

export type PgliteMode = "thread" | "calling thread";

export interface PgliteThreadBenchRow {
  pglite: PgliteMode;
  concurrency: number;
  questions: number;
  latency_ms: string;
  seconds: number;
  ideal_seconds: number;
  ratio_to_ideal: number;
  /** Main thread's event-loop delay while the run went, ms. */
  loop_delay_p50_ms: number;
  loop_delay_p99_ms: number;
  loop_delay_max_ms: number;
  /** Share of the run the main thread's event loop was busy. */
  main_busy: number;
  /** Process CPU (every thread) per question, ms. */
  cpu_ms_per_question: number;
  health_p50_ms: number;
  health_p99_ms: number;
  health_max_ms: number;
  run_get_p50_ms: number;
  run_get_p99_ms: number;
  run_get_max_ms: number;
  /** Gaps between SSE progress events (the stream polls every 500 ms). */
  sse_gap_p50_ms: number;
  sse_gap_max_ms: number;
  peak_rss_mb: number;
  load_average: number;
}

const CORPUS = fileURLToPath(new URL("../examples/corpus/", import.meta.url));
const LATENCY_MS = 300;
const SPREAD_MS = 500;
const CRITICAL_PATH_CALLS = 3;
/** Questions per run at each concurrency: about 20-40 s of run at 300-800 ms. */
const RUNS = [
  { concurrency: 16, questions: 300 },
  { concurrency: 64, questions: 1_000 },
];

/** Runs in a separate process so its own timing never waits on the server's event loop. */
const PROBE = `
const [origin, token, id] = process.argv.slice(1);
const auth = { authorization: "Bearer " + token };
const health = [], runGet = [], gaps = [];
let done = false;
async function poll(path, every, into) {
  while (!done) {
    const t = performance.now();
    const response = await fetch(origin + path, { headers: auth });
    await response.arrayBuffer();
    into.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, every));
  }
}
async function sse() {
  const response = await fetch(origin + "/api/v1/evaluations/" + id + "/events", { headers: auth });
  const decoder = new TextDecoder();
  let text = "", last;
  for await (const chunk of response.body) {
    text += decoder.decode(chunk, { stream: true });
    let at;
    while ((at = text.indexOf("\\n\\n")) >= 0) {
      const message = text.slice(0, at);
      text = text.slice(at + 2);
      if (message.startsWith("event: progress")) {
        const now = performance.now();
        if (last !== undefined) gaps.push(now - last);
        last = now;
      }
      if (message.startsWith("event: end")) { done = true; return; }
    }
  }
  done = true;
}
await Promise.all([poll("/api/v1/health", 50, health), poll("/api/v1/evaluations/" + id, 200, runGet), sse()]);
console.log(JSON.stringify({ health, runGet, gaps }));
`;

function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function benchPgliteThread(mode: PgliteMode): Promise<PgliteThreadBenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-pglite-"));
  createHome(home);
  const llm = await startScriptedLlmProcess({ replies: [{ reply: { auto: UNIVERSAL_REPLY } }] });
  const store = await openStore({ home, thread: mode === "thread" });
  const jobs = await startJobs(store);
  try {
    const config = await benchRunConfig(home, llm.baseUrl, { max_concurrency: 256 });
    const clients = configuredClients(config.llm);
    const user = await findOrCreateUser(store.db, "bench");
    const token = await createApiToken(store.db, user.id);
    const bot = createBuiltinBot({ db: store.db, workspaceId: user.id });
    await bot.ingestPaths([CORPUS], "lanting");
    const collectionId = await bot.resolveCollection("lanting");
    const http = await listen(createApp({ db: store.db, jobs, webDir: false }), { port: 0 });

    const run = async (questions: number, concurrency: number, label: string) => {
      const worker = startEvaluationWorker({ jobs, concurrency, clientsFor: () => clients });
      const set = await createQuestionSet(
        store.db,
        user.id,
        { user_id: user.id, name: label, collection_id: collectionId },
        Array.from({ length: questions }, (_, i) => ({
          question_type: "FACTUAL",
          question_text: `When did the Lanting Metro open Line 1? (${label} #${i})`,
          ground_truth: "Line 1 opened in 2009.",
          question_key: `${label}-${i}`,
        })),
      );
      const delay = monitorEventLoopDelay({ resolution: 10 });
      const loop = performance.eventLoopUtilization();
      const cpu = process.cpuUsage();
      const started = await startEvaluation(
        { db: store.db, jobs },
        { workspaceId: user.id, userId: user.id },
        {
          question_set_id: set.id,
          collection_id: collectionId,
          judges: ["rubric", "reference"],
          no_cache: true,
        },
        config,
        { via: "cli" },
      );
      delay.enable();
      const probe = spawn(
        process.execPath,
        ["--input-type=module", "-e", PROBE, http.url, token, started.id],
        {
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      let out = "";
      probe.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      await new Promise((resolve) => probe.on("exit", resolve));
      delay.disable();
      const busy = performance.eventLoopUtilization(loop).utilization;
      const used = process.cpuUsage(cpu);
      await worker.stop();
      const row = await getEvaluation(store.db, user.id, started.id);
      if (row?.status !== "COMPLETED") throw new Error(`bench run ${label} ended ${row?.status}`);
      const seconds =
        ((row.finished_at ?? new Date()).getTime() - row.gmt_created.getTime()) / 1000;
      const probed = JSON.parse(out) as { health: number[]; runGet: number[]; gaps: number[] };
      return { seconds, delay, busy, cpuMs: (used.user + used.system) / 1000, probed };
    };

    // Warm-up: JIT, sockets, PGlite's catalog caches.
    await run(100, 16, "warm-up");
    await llm.setLatency(LATENCY_MS, SPREAD_MS);
    const rows: PgliteThreadBenchRow[] = [];
    for (const { concurrency, questions } of RUNS) {
      const r = await run(questions, concurrency, `c${concurrency}`);
      const ideal =
        (questions * CRITICAL_PATH_CALLS * (LATENCY_MS + SPREAD_MS / 2)) / 1000 / concurrency;
      const ms = (ns: number) => round(ns / 1e6);
      rows.push({
        pglite: mode,
        concurrency,
        questions,
        latency_ms: `${LATENCY_MS}-${LATENCY_MS + SPREAD_MS}`,
        seconds: round(r.seconds, 2),
        ideal_seconds: round(ideal, 2),
        ratio_to_ideal: round(ideal / r.seconds, 3),
        loop_delay_p50_ms: ms(r.delay.percentile(50)),
        loop_delay_p99_ms: ms(r.delay.percentile(99)),
        loop_delay_max_ms: ms(r.delay.max),
        main_busy: round(r.busy, 2),
        cpu_ms_per_question: round(r.cpuMs / questions, 2),
        health_p50_ms: round(quantile(r.probed.health, 0.5)),
        health_p99_ms: round(quantile(r.probed.health, 0.99)),
        health_max_ms: round(Math.max(0, ...r.probed.health)),
        run_get_p50_ms: round(quantile(r.probed.runGet, 0.5)),
        run_get_p99_ms: round(quantile(r.probed.runGet, 0.99)),
        run_get_max_ms: round(Math.max(0, ...r.probed.runGet)),
        sse_gap_p50_ms: round(quantile(r.probed.gaps, 0.5)),
        sse_gap_max_ms: round(Math.max(0, ...r.probed.gaps)),
        peak_rss_mb: round(peakRssMbOfThisProcess(), 0),
        load_average: round(loadavg()[0] ?? 0, 2),
      });
    }
    await http.close();
    return rows;
  } finally {
    await jobs.stop();
    await store.close();
    await llm.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** Each mode in a fresh child process: its memory, JIT and PGlite are its own. */
export function benchPgliteThreadInChild(mode: PgliteMode): PgliteThreadBenchRow[] {
  const child = spawnSync(process.execPath, [compileBench("pglite-thread"), mode], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.status !== 0) throw new Error(`the PGlite thread bench child exited ${child.status}`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "") as PgliteThreadBenchRow[];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  tuneHeapGrowth();
  const mode = (process.argv[2] ?? "thread") as PgliteMode;
  console.log(JSON.stringify(await benchPgliteThread(mode)));
}
