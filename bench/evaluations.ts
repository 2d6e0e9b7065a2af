// Evaluation runs end to end: 2,000 questions through the real worker (pg-boss item jobs, claims,
// idempotent result writes) on the embedded PGlite store (a data directory on disk, as
// `ragjudge start` uses), 16 items at once. Each question is the built-in bot over a small
// collection (BM25 retrieval, the answer loop's generate + review) and the rubric and reference
// judges: 4 LLM calls, against the scripted OpenAI-compatible server in its own child process (its
// CPU is not ours), at 0 ms and at 50 ms latency.
//
// Ideal wall time = questions x critical-path latency / concurrency. The critical path of one
// question is 3 calls in sequence: generate, then review, then rubric and reference in parallel
// (they count once). So at 50 ms: 2,000 x 150 ms / 16 = 18.75 s. At 0 ms the ideal is 0 and only
// questions/s is reported. Goals: >= 200 questions/s at 0 ms, >= 0.9 of ideal at 50 ms, peak RSS
// < 400 MB.

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { configuredClients, loadConfig, type RagjudgeConfig } from "../src/config/index.js";
import { startEvaluation, startEvaluationWorker } from "../src/evals/runs/index.js";
import { tuneHeapGrowth } from "../src/cli/heap.js";
import { startJobs } from "../src/jobs/index.js";
import { parseLlmConfig } from "../src/llm/index.js";
import { createBuiltinBot } from "../src/rag/index.js";
import {
  createQuestionSet,
  type Db,
  type EvaluationRow,
  findOrCreateUser,
  JOBS_SCHEMA,
  openStore,
  queryRows,
} from "../src/store/index.js";
import { startScriptedLlmProcess } from "../test/support/scripted-llm.js";

export interface EvaluationBenchRow {
  store: "pglite" | "postgres";
  latency_ms: number;
  questions: number;
  concurrency: number;
  /** LLM calls per question, from the results' usage (bot + judges). */
  calls_per_question: number;
  /** From the run's creation to its finished_at (database clock). */
  seconds: number;
  questions_per_second: number;
  /** questions x 3 calls on the critical path x latency / concurrency; 0 at 0 ms. */
  ideal_seconds: number;
  /** ideal / actual; null at 0 ms. */
  ratio_to_ideal: number | null;
  /** Process CPU (user + system) per question, ms: the worker, PGlite, the LLM client. */
  cpu_ms_per_question: number;
  /** Share of the wall time the event loop was busy (1 = CPU-bound). */
  busy: number;
  scored: number;
  load_average: number;
  goal: string;
  met: boolean;
}

export interface EvaluationBench {
  rows: EvaluationBenchRow[];
  /**
   * This process's peak resident memory (peakRssMb: opening the existing home, ingest, warm-up and
   * both runs), MB. The home is created (PGlite's initdb, migrations) by a short-lived child
   * first, as `ragjudge` creates it once on first start: initdb alone peaks near 800 MB.
   */
  peak_rss_mb: number;
  /** RSS sampled every 250 ms during the measured runs, MB. */
  runs_peak_rss_mb: number;
  /** The short-lived process that created the home (initdb + migrations), MB. */
  create_home_peak_rss_mb: number;
  /** (evaluation_results + the pg-boss schema, tables, indexes and TOAST) / result rows. */
  db_bytes_per_result: number;
  evaluation_results_bytes_per_result: number;
  jobs_bytes_per_result: number;
  result_rows: number;
  /** Where the scripted LLM server ran. */
  llm_server: "child process";
  goals: { rss_met: boolean };
}

const CORPUS = fileURLToPath(new URL("../examples/corpus/", import.meta.url));
const TEMPLATES = [
  ["When did the Lanting Metro open Line 1?", "Line 1 opened in 2009."],
  ["How many lines does the Lanting Metro have?", "The metro has four lines."],
  ["Why was the flood of 2016 so damaging?", "Heavy rain and a high river."],
  ["What festival is held in spring?", "The lantern festival."],
] as const;

/**
 * One reply every judge accepts (review, rubric, reference each read their own fields). The
 * generator's chat carries no response_format, so `auto` answers it in prose (with the JSON in a
 * fence): an answer the review then passes, so there is no regeneration.
 */
export const UNIVERSAL_REPLY = {
  reasonableness: { passed: true, problems: [] },
  evidence: { passed: true, problems: [] },
  analysis: "The answer is supported by the retrieved context.",
  accuracy: 8,
  completeness: 7,
  clarity: 9,
  reason: "Accurate and clear.",
  suggestion: "None.",
  score: 4,
  reasoning: "Consistent with the ground truth.",
};

const CRITICAL_PATH_CALLS = 3;

function llmConfigFor(baseUrl: string, concurrency: number): RagjudgeConfig["llm"] {
  // Only the generator and judge roles: the rewriter and embedder stay offline, so a question
  // costs exactly generate + review + rubric + reference. The provider limit is raised above the
  // calls 16 items can have in flight (rubric and reference run in parallel).
  return parseLlmConfig({
    max_concurrency: concurrency * 4,
    timeout_ms: 30_000,
    roles: {
      generator: { model: "generator-model", base_url: baseUrl, api_key: "bench" },
      judge: { model: "judge-model", base_url: baseUrl, api_key: "bench" },
    },
  });
}

/**
 * A run's configuration for a bench: the defaults, both LLM roles on the scripted server at
 * `baseUrl` with `llm` settings on top, and the loops' observations kept in the bench's home.
 */
export async function benchRunConfig(
  home: string,
  baseUrl: string,
  llm: Record<string, unknown>,
): Promise<RagjudgeConfig> {
  const loaded = await loadConfig({ cwd: "/nonexistent", env: {} });
  return {
    ...loaded,
    llm: parseLlmConfig({
      timeout_ms: 30_000,
      ...llm,
      roles: {
        generator: { model: "generator-model", base_url: baseUrl, api_key: "bench" },
        judge: { model: "judge-model", base_url: baseUrl, api_key: "bench" },
      },
    }),
    rag: {
      ...loaded.rag,
      loops: {
        ...loaded.rag.loops,
        observations: { ...loaded.rag.loops.observations, path: join(home, "observations.jsonl") },
      },
    },
  };
}

async function relationBytes(db: Db, table: "evaluation_results" | "jobs"): Promise<number> {
  const rows = await queryRows<{ bytes: string | null }>(
    db,
    table === "evaluation_results"
      ? sql`select pg_total_relation_size('evaluation_results')::text as bytes`
      : // pg-boss 10 partitions its job table by queue: sum every table of its schema.
        sql`select sum(pg_total_relation_size(c.oid))::text as bytes from pg_class c
            where c.relnamespace = ${JOBS_SCHEMA}::regnamespace and c.relkind = 'r'`,
  );
  return Number(rows[0]?.bytes ?? 0);
}

export async function benchEvaluations(
  options: {
    questions?: number;
    concurrency?: number;
    latencies?: number[];
    /** A PostgreSQL server database instead of the embedded store. */
    databaseUrl?: string;
  } = {},
): Promise<EvaluationBench> {
  const questions = options.questions ?? 2_000;
  const concurrency = options.concurrency ?? 16;
  const latencies = options.latencies ?? [0, 50];
  const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-evals-"));
  const kind = options.databaseUrl ? "postgres" : "pglite";
  const createHomeRssMb = options.databaseUrl ? 0 : createHome(home);
  const server = await startScriptedLlmProcess({ replies: [{ reply: { auto: UNIVERSAL_REPLY } }] });
  const store = await openStore(
    options.databaseUrl ? { databaseUrl: options.databaseUrl } : { home },
  );
  const jobs = await startJobs(store);
  try {
    const loaded = await loadConfig({ cwd: "/nonexistent", env: {} });
    // observational_data.jsonl beside the database, as the CLI's session puts it (its default is
    // relative to the working directory).
    const loops = {
      ...loaded.rag.loops,
      observations: {
        ...loaded.rag.loops.observations,
        path: join(home, "observational_data.jsonl"),
      },
    };
    const config: RagjudgeConfig = {
      ...loaded,
      llm: llmConfigFor(server.baseUrl, concurrency),
      rag: { ...loaded.rag, loops },
    };
    const clients = configuredClients(config.llm);
    const worker = startEvaluationWorker({ jobs, concurrency, clientsFor: () => clients });
    const user = await findOrCreateUser(store.db, "bench");
    const bot = createBuiltinBot({ db: store.db, workspaceId: user.id });
    await bot.ingestPaths([CORPUS], "lanting");
    const collectionId = await bot.resolveCollection("lanting");

    const run = async (n: number, label: string) => {
      const set = await createQuestionSet(
        store.db,
        user.id,
        { user_id: user.id, name: label, collection_id: collectionId },
        Array.from({ length: n }, (_, i) => {
          const [question, truth] = TEMPLATES[i % TEMPLATES.length] ?? TEMPLATES[0];
          return {
            question_type: "FACTUAL",
            question_text: `${question} (${label} #${i})`,
            ground_truth: truth,
            question_key: `${label}-${i}`,
          };
        }),
      );
      const cpu = process.cpuUsage();
      const loop = performance.eventLoopUtilization();
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
      let row: EvaluationRow | undefined;
      for (;;) {
        [row] = await queryRows<EvaluationRow>(
          store.db,
          sql`select * from evaluations where id = ${started.id}`,
        );
        if (row && !["PENDING", "RUNNING"].includes(row.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const used = process.cpuUsage(cpu);
      const busy = performance.eventLoopUtilization(loop).utilization;
      if (row.status !== "COMPLETED") {
        throw new Error(`bench run ${label} ended ${row.status}: ${row.status_reason}`);
      }
      const [calls] = await queryRows<{ calls: number }>(
        store.db,
        sql`select avg(coalesce((usage->'bot'->>'calls')::int, 0)
                   + coalesce((usage->'judges'->>'calls')::int, 0))::float8 as calls
            from evaluation_results where evaluation_id = ${started.id}`,
      );
      const finished = row.finished_at ? new Date(row.finished_at).getTime() : Date.now();
      const seconds = (finished - new Date(row.gmt_created).getTime()) / 1000;
      return { row, seconds, cpuMs: (used.user + used.system) / 1000, busy, calls: calls?.calls };
    };

    // Warm-up: JIT, sockets, PGlite's catalog caches.
    await server.setLatency(0);
    await run(200, "warm-up");

    const rows: EvaluationBenchRow[] = [];
    let runsRss = 0;
    const sampler = setInterval(() => {
      runsRss = Math.max(runsRss, process.memoryUsage.rss());
    }, 250);
    for (const latencyMs of latencies) {
      await server.setLatency(latencyMs);
      const result = await run(questions, `latency-${latencyMs}`);
      const ideal = (questions * CRITICAL_PATH_CALLS * latencyMs) / 1000 / concurrency;
      const perSecond = questions / result.seconds;
      const ratio = latencyMs > 0 ? ideal / result.seconds : null;
      rows.push({
        store: kind,
        latency_ms: latencyMs,
        questions,
        concurrency,
        calls_per_question: round(result.calls ?? 0, 2),
        seconds: round(result.seconds, 2),
        questions_per_second: round(perSecond, 1),
        ideal_seconds: round(ideal, 2),
        ratio_to_ideal: ratio === null ? null : round(ratio, 3),
        cpu_ms_per_question: round(result.cpuMs / questions, 2),
        busy: round(result.busy, 2),
        scored: result.row.scored_questions,
        load_average: round(loadavg()[0] ?? 0, 2),
        goal: latencyMs > 0 ? ">= 0.9 of ideal" : ">= 200 questions/s",
        met: latencyMs > 0 ? (ratio ?? 0) >= 0.9 : perSecond >= 200,
      });
    }
    clearInterval(sampler);
    await worker.stop();

    const [count] = await queryRows<{ n: number }>(
      store.db,
      sql`select count(*)::int as n from evaluation_results`,
    );
    const resultRows = count?.n ?? 1;
    const resultsBytes = await relationBytes(store.db, "evaluation_results");
    const jobsBytes = await relationBytes(store.db, "jobs");
    const peakRssMb = peakRssMbOfThisProcess();
    return {
      rows,
      peak_rss_mb: round(peakRssMb, 1),
      runs_peak_rss_mb: round(runsRss / 2 ** 20, 1),
      create_home_peak_rss_mb: round(createHomeRssMb, 1),
      db_bytes_per_result: Math.round((resultsBytes + jobsBytes) / resultRows),
      evaluation_results_bytes_per_result: Math.round(resultsBytes / resultRows),
      jobs_bytes_per_result: Math.round(jobsBytes / resultRows),
      result_rows: resultRows,
      llm_server: "child process",
      // Each store runs in its own process (benchEvaluationsInChild): the peak is this run's.
      goals: { rss_met: peakRssMb < 400 },
    };
  } finally {
    await jobs.stop();
    await store.close();
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** Creates and migrates the embedded database in `home` in a child process; returns its peak RSS (MB). */
export function createHome(home: string): number {
  // .js: tsx maps it to the .ts source, and the compiled bench (see below) has the .js.
  const store = new URL("../src/store/index.js", import.meta.url).href;
  const code =
    `const { openStore } = await import(${JSON.stringify(store)});` +
    `const s = await openStore({ home: ${JSON.stringify(home)} }); await s.close();` +
    // Its own peak (VmHWM), not getrusage's, which carries over this process's (see below).
    `const { readFileSync } = await import("node:fs");` +
    `console.log(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? process.resourceUsage().maxRSS);`;
  const child = spawnSync(
    process.execPath,
    // Compiled (as `npm run bench` runs it), plain node, as a deployed worker; from source, tsx.
    [
      ...(import.meta.url.endsWith(".ts") ? ["--import", import.meta.resolve("tsx")] : []),
      "--input-type=module",
      "-e",
      code,
    ],
    { encoding: "utf8" },
  );
  if (child.status !== 0) throw new Error(`creating ${home} failed: ${child.stderr}`);
  return Number(child.stdout.trim().split("\n").at(-1)) / 1024;
}

/**
 * Peak RSS, MB. On Linux, VmHWM of /proc/self/status: getrusage's maxRSS carries over the parent's
 * peak through fork and exec, so a child of a big process would report its parent's.
 */
export function peakRssMbOfThisProcess(): number {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    if (match?.[1]) return Number(match[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * The benches that run in a child (tsconfig.bench.json) and what they import, compiled by tsc into
 * bench/.build: the child runs on plain node, as a deployed `ragjudge worker` does
 * (bin/ragjudge.js runs dist/). Under tsx its loader alone adds about 90 MB of RSS. Returns the
 * compiled entry of `bench/<name>.ts`; compiles once per process.
 */
let compiled: string | undefined;
export function compileBench(name = "evaluations"): string {
  if (compiled) return join(compiled, "bench", `${name}.js`);
  const root = fileURLToPath(new URL("..", import.meta.url));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const built = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.bench.json")], {
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`compiling the bench failed:\n${built.stdout}`);
  // Paths the code resolves from its own location (the corpus, drizzle's migrations, the built
  // PGlite template in dist/).
  const out = join(root, "bench", ".build");
  for (const dir of ["examples", "drizzle", "dist"]) {
    if (!existsSync(join(out, dir))) symlinkSync(join(root, dir), join(out, dir));
  }
  compiled = out;
  return join(out, "bench", `${name}.js`);
}

/**
 * Each store's run in a fresh child process, so its peak RSS is its own (not an earlier benchmark
 * family's, nor the other store's PGlite). Its result is the child's last line of stdout.
 */
export function benchEvaluationsInChild(options: { databaseUrl?: string } = {}): EvaluationBench {
  const child = spawnSync(
    process.execPath,
    [compileBench(), ...(options.databaseUrl ? [options.databaseUrl] : [])],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 2 ** 24 },
  );
  if (child.status !== 0) throw new Error(`the evaluation bench child exited ${child.status}`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "") as EvaluationBench;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // As bin/ragjudge.js does for every command.
  tuneHeapGrowth();
  const databaseUrl = process.argv[2];
  const result = await benchEvaluations(databaseUrl ? { databaseUrl } : {});
  console.log(JSON.stringify(result));
}
