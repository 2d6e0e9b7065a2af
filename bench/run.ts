// `npm run bench [gate|guard|judges|offline|judges-public|retrieval|retrieval-quality|rag|evals|pglite|limiter|cli|arena|web|calibration|promptfoo|streams|monitor|uploads ...]`:
// runs the benchmarks, prints one table per
// measurement, writes bench/results/latest.json. Goals are reported here, never asserted in tests.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { renderTable } from "../src/formats/index.js";
import { createDatabase, startPostgresServer } from "../test/support/postgres-server.js";
import { benchArenaInChild } from "./arena.js";
import { benchCalibration } from "./calibration.js";
import { benchEvaluationsInChild } from "./evaluations.js";
import { benchGatePersisted } from "./gate-persisted.js";
import { benchGatePure } from "./gate-pure.js";
import { benchGuard } from "./guard.js";
import { benchIngest } from "./ingest.js";
import { benchJudges } from "./judges.js";
import { benchLimiter } from "./limiter.js";
import { benchMonitor } from "./monitor.js";
import { benchCliMemory } from "./cli-memory.js";
import { benchOfflineJudges } from "./offline-judges.js";
import { benchJudgesPublic } from "./judges-public.js";
import { benchPgliteThreadInChild } from "./pglite-thread.js";
import { benchPromptfoo, PROMPTFOO_INSTALL_HINT, promptfooCommand } from "./promptfoo.js";
import { benchRagLoops } from "./rag-loops.js";
import { benchRetrieval } from "./retrieval.js";
import { benchRetrievalQuality } from "./retrieval-quality.js";
import { benchRewriteQuality } from "./rewrite-quality.js";
import { benchStreams } from "./streams.js";
import { benchUploads } from "./uploads.js";
import { benchWeb } from "./web.js";

const FAMILIES = [
  "gate",
  "guard",
  "judges",
  "offline",
  "judges-public",
  "retrieval",
  "retrieval-quality",
  "rag",
  "evals",
  "pglite",
  "limiter",
  "cli",
  "arena",
  "web",
  "calibration",
  "promptfoo",
  "streams",
  "ingest",
  "monitor",
  "uploads",
] as const;
// Options (`--name value`) go to the benchmarks that read them; the rest name families.
const argv = process.argv.slice(2);
const flags = new Map<string, string>();
const only = argv.filter((arg, i) => {
  if (arg.startsWith("--")) {
    flags.set(arg.slice(2), argv[i + 1] ?? "");
    return false;
  }
  return !(argv[i - 1]?.startsWith("--") ?? false);
});
const unknown = only.filter((name) => !(FAMILIES as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(", ")}; choose from ${FAMILIES.join(", ")}`);
  process.exit(2);
}
const wanted = (name: (typeof FAMILIES)[number]) => only.length === 0 || only.includes(name);
/** Families skipped for want of a tool outside the project: they keep their last results. */
const skipped = new Set<string>();

const results: Record<string, unknown> = {
  machine: {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    load_average_at_start: loadavg()[0],
  },
  started_at: new Date().toISOString(),
};

function cellOf(value: unknown): string | number {
  if (value === null || value === undefined) return "-";
  if (typeof value === "number")
    return Number.isInteger(value) ? value : Number(value.toPrecision(4));
  if (typeof value === "boolean") return value ? "met" : "MISSED";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Prints rows of plain objects as a table, one column per key. */
function printRows(title: string, rows: readonly object[]) {
  const list = rows as readonly Record<string, unknown>[];
  const columns = [...new Set(list.flatMap((row) => Object.keys(row)))];
  console.log(`\n${title}`);
  console.log(
    renderTable(
      columns,
      list.map((row) => columns.map((c) => cellOf(row[c]))),
      { maxCell: 40 },
    ),
  );
}

if (wanted("gate")) {
  const pure = await benchGatePure();
  results.gate_pure = pure;
  printRows(
    "Evidence gate, pure (1 KB answer, 10 hits x 500 chars, one core; goal >= 10,000 answers per CPU-second)",
    [{ ...pure, goal_met: pure.answersPerCpuSecond >= 10_000 }],
  );
  const server = await startPostgresServer();
  try {
    const pglite = await benchGatePersisted({ kind: "pglite" });
    const postgres = await benchGatePersisted({
      kind: "postgres",
      databaseUrl: await createDatabase(server.url, "bench"),
    });
    results.gate_persisted = [pglite, postgres];
    printRows(
      "Evidence gate, persisted (evaluate + store, batches of 500; goal on PGlite >= 1,000 records/s)",
      [{ ...pglite, goal_met: pglite.recordsPerSecond >= 1000 }, postgres],
    );
  } finally {
    await server.stop();
  }
}

if (wanted("guard")) {
  const rows = benchGuard();
  results.guard = rows;
  printRows(
    "Guardrail on a typical answer (5 hits of ~1 kB, 200 words, 3 cited; goal p99 <= 2 ms on one core)",
    rows,
  );
}

if (wanted("judges")) {
  const rows = await benchJudges();
  results.judges = rows;
  printRows("Judges against the scripted LLM server (review judge, one call each)", rows);
}

if (wanted("offline")) {
  const offline = benchOfflineJudges();
  results.offline_judges = offline;
  printRows(
    "Offline judges vs people: hand-labelled answers of 5 systems (dev tunes, test is held out); goals agreement >= 0.9 and systems ranked as people rank them",
    offline.agreement,
  );
  printRows(
    `Pass rates per system (people rank: dev ${offline.human_ranking.dev}; test ${offline.human_ranking.test})`,
    offline.systems,
  );
  printRows(
    "Offline groundedness: ROC AUC against hand-labelled attribution (supported or not); goal >= 0.95 on test, baseline token precision",
    offline.attribution,
  );
  printRows("Offline judges: goals", [offline.goals]);
  printRows("Offline judges: judged answers per second (one core)", offline.throughput);
}

if (wanted("judges-public")) {
  const pub = benchJudgesPublic();
  results.judges_public = pub;
  printRows(
    "Offline groundedness on BEGIN dev (public; bench/data/public/README.md), leave one corpus out: settings chosen on the two other corpora, ROC AUC on the held-out one; goal: token precision + 0.015",
    pub.groundedness,
  );
  printRows(
    "Offline groundedness ablation: ROC AUC per BEGIN corpus with each component switched off (and the change against the judge as shipped)",
    pub.groundedness_ablation,
  );
  printRows(
    `Offline reference verdict on EVOUNA TriviaQA (public), questions split by seed ${pub.split_seed}; goal on held-out: agreement >= 0.95, systems ranked as people rank them (dev: ${pub.human_ranking.dev}; held-out: ${pub.human_ranking["held-out"]})`,
    pub.reference,
  );
  printRows(
    "Offline reference verdict ablation on EVOUNA TriviaQA dev (held-out is not used to choose components): agreement with each component switched off, and the answers whose verdict changes",
    pub.reference_ablation,
  );
  printRows("EVOUNA TriviaQA: pass rates per system", pub.reference_systems);
  printRows("Public-data goals", [pub.goals]);
}

if (wanted("retrieval")) {
  const rows = await benchRetrieval();
  results.retrieval = rows;
  printRows("Retrieval (BM25 on 100,000 chunks; ingest on PGlite)", rows);
}

if (wanted("retrieval") || wanted("retrieval-quality")) {
  const rows = await benchRetrievalQuality();
  results.retrieval_quality = rows;
  printRows(
    "Retrieval quality at top 10: known-item questions on BEGIN's real paragraphs (public), lexical source",
    rows,
  );
}

if (wanted("rag")) {
  const rag = await benchRagLoops();
  results.rag = rag;
  printRows("RAG loops: overhead per step", [rag.step]);
  printRows("RAG loops: one offline ask (no LLM)", [rag.offline]);
  printRows(
    "RAG loops: 1,000 concurrent asks against the scripted LLM at 50 ms (goal >= 0.9 of ideal)",
    rag.concurrent,
  );
  const rewrite = await benchRewriteQuality();
  results.rewrite_quality = rewrite;
  printRows(
    "Seed 001 AC 4: 20 vague queries, quality before and after rewriting (offline rewriter)",
    [rewrite],
  );
}

if (wanted("evals")) {
  const server = await startPostgresServer();
  let postgres: ReturnType<typeof benchEvaluationsInChild>;
  try {
    postgres = benchEvaluationsInChild({ databaseUrl: await createDatabase(server.url, "bench") });
  } finally {
    await server.stop();
  }
  const pglite = benchEvaluationsInChild();
  results.evals = { pglite, postgres };
  printRows(
    "Evaluation runs: 2,000 questions, built-in bot + rubric + reference (4 LLM calls), 16 at once; " +
      "ideal = questions x 3 critical-path calls x latency / 16; " +
      "goals >= 200 questions/s at 0 ms, >= 0.9 of ideal at 50 ms",
    [...pglite.rows, ...postgres.rows],
  );
  printRows(
    "Evaluation runs: memory and storage, each store in its own process (goal: peak RSS < 400 MB; the PostgreSQL server's own memory is not counted)",
    [pglite, postgres].map((run, i) => ({
      store: i === 0 ? "pglite" : "postgres",
      peak_rss_mb: run.peak_rss_mb,
      runs_peak_rss_mb: run.runs_peak_rss_mb,
      rss_goal_met: run.goals.rss_met,
      create_home_peak_rss_mb: i === 0 ? run.create_home_peak_rss_mb : null,
      db_bytes_per_result: run.db_bytes_per_result,
      results_bytes_per_result: run.evaluation_results_bytes_per_result,
      jobs_bytes_per_result: run.jobs_bytes_per_result,
      result_rows: run.result_rows,
      llm_server: run.llm_server,
    })),
  );
}

if (wanted("pglite")) {
  const rows = [
    benchPgliteThreadInChild("thread"),
    benchPgliteThreadInChild("calling thread"),
  ].flat();
  results.pglite_thread = rows;
  printRows(
    "PGlite on its own thread vs on the calling thread: `ragjudge start`'s process (store on disk, worker, API) running built-in bot + rubric + reference against the scripted LLM at 300-800 ms; API and SSE probed from another process",
    rows,
  );
}

if (wanted("monitor")) {
  const monitor = await benchMonitor();
  results.monitor = monitor;
  printRows(
    `Monitor page over ${monitor.answers.toLocaleString("en")} answers' per-minute rollups (${monitor.rollup_rows.toLocaleString("en")} rows, ${monitor.judge_rollup_rows.toLocaleString("en")} judge rows, loaded in ${monitor.load_seconds} s): the series API (median of 5) and the page in headless Chromium from navigation to totals and charts drawn, one service, broken down by tenant (goal: < 1 s)`,
    monitor.views,
  );
}

if (wanted("web")) {
  const web = await benchWeb();
  results.web = web;
  printRows(
    "Web app: JavaScript loaded by the first page (/evaluations/list; goal < 250 kB gzip)",
    [web.first_page_js],
  );
  printRows(
    "Web app: detail page of a 10,000-result run in headless Chromium (goals: first card < 1 s, filter change < 100 ms, no long task > 50 ms while scrolling)",
    [
      (({ goals_met, ...numbers }) => ({
        ...numbers,
        first_render_goal: goals_met.first_render,
        filter_goal: goals_met.filter,
        scroll_goal: goals_met.scroll,
      }))(web.detail_10k),
    ],
  );
  printRows(
    "Web app: SSE stream of a 2,000-question run at full speed (HTTP bot answering at once, offline judge), PostgreSQL then the embedded store; page lag = page shows the last result minus server COMPLETED; summary settled = the page's summary shows the final scored count",
    [
      { store: "postgres", ...web.sse_2000 },
      { store: "embedded", ...web.sse_2000_embedded },
    ],
  );
}

if (wanted("calibration")) {
  const rows = await benchCalibration();
  results.calibration = rows;
  printRows(
    "Calibrate on 100,000 results (90% labelled, synthetic, seeded): the statistics alone, and `ragjudge calibrate`'s path on PGlite (goal < 2 s)",
    rows,
  );
}

if (wanted("limiter")) {
  const limiter = await benchLimiter();
  results.limiter = limiter;
  printRows(
    "Adaptive LLM limit against a provider allowing 20 calls in flight (429 + Retry-After beyond), lognormal latency, median 800 ms; 2,000 questions, 3 calls each, no max_concurrency set",
    [limiter],
  );
}

if (wanted("streams")) {
  const streams = await benchStreams();
  results.streams = streams;
  printRows(
    "Live progress streams on one running run (embedded store on its thread, server in its own process): API read latency (GET /evaluations/:id, 40 reads over 10 s) and the server's CPU in % of one core",
    streams,
  );
}

if (wanted("uploads")) {
  const uploads = await benchUploads();
  results.uploads = uploads;
  printRows(
    `/api/v1/health's latency while \`ragjudge serve\` reads hostile uploads (asked every 10 ms; goal: max < 100 ms; load average ${uploads.load.map((value) => value.toFixed(2)).join(" -> ")})`,
    uploads.rows,
  );
}

// Not part of a plain `npm run bench`: it takes minutes and the whole machine.
if (only.includes("ingest")) {
  const seconds = Number(flags.get("seconds") ?? "300");
  const stores = (flags.get("store") ?? "embedded,postgres").split(",");
  const rows = [];
  for (const store of stores as ("embedded" | "postgres")[]) {
    const goal = store === "embedded" ? 2_000 : 5_000;
    const row = await benchIngest({
      store,
      seconds,
      rate: Number(flags.get("rate") ?? goal),
      clients: Number(flags.get("clients") ?? "2"),
      workers: 2,
    });
    const { cpu_by_process_ms_per_answer, ...summary } = row;
    rows.push(row);
    printRows(
      `Production ingest into ${row.store}: OTel Node SDK + OTLP/protobuf + OpenInference OpenAI instrumentation, ${seconds} s (goal: >= ${goal} answers/s, every answer gated, export p99 <= 100 ms, 0 lost)`,
      [
        {
          ...summary,
          goal_met:
            summary.answers_per_s >= goal &&
            summary.gated === summary.stored &&
            summary.export_p99_ms <= 100 &&
            summary.lost === 0,
        },
      ],
    );
    printRows(
      "Where the CPU goes, ms per stored answer",
      Object.entries(cpu_by_process_ms_per_answer).map(([process, ms]) => ({ process, ms })),
    );
  }
  results.ingest = rows;
}

if (wanted("cli")) {
  const cli = await benchCliMemory();
  results.cli_memory = cli;
  printRows(
    "ragjudge eval as a user runs it (bin/ragjudge.js, a fresh embedded home, 2,000 questions imported, built-in bot + rubric + reference; goal: peak RSS < 400 MB)",
    [cli],
  );
}

if (wanted("arena")) {
  const arena = benchArenaInChild();
  results.arena = arena;
  printRows(
    "Arena: 5 contestants x 5,000 questions, 1,000 bootstrap rounds (collect, outcomes, Bradley-Terry, bootstrap, paired differences, length-controlled fit and its bootstrap; goal < 5 s); peak RSS includes tsx",
    [arena],
  );
}

if (wanted("promptfoo")) {
  const command = promptfooCommand();
  if (command === undefined) {
    console.log(`\n${PROMPTFOO_INSTALL_HINT}`);
    skipped.add("promptfoo");
  } else {
    const promptfoo = await benchPromptfoo(command);
    results.promptfoo = { ...promptfoo, uptime: uptimeLine() };
    printRows(
      `ragjudge vs promptfoo ${promptfoo.promptfoo_version} (Node ${promptfoo.promptfoo_node}; ragjudge on ${promptfoo.ragjudge_node}), each CLI cold per run, same questions and calls (answer + judge per question, counted at the server as answer+judge); median of ${promptfoo.repeats} runs, wall seconds; ratio = promptfoo / ragjudge`,
      promptfoo.rows.map(({ ragjudge_runs_s, promptfoo_runs_s, ...row }) => ({
        ...row,
        ragjudge_runs_s: ragjudge_runs_s.join(" "),
        promptfoo_runs_s: promptfoo_runs_s.join(" "),
      })),
    );
    console.log(`load: ${uptimeLine()}`);
  }
}

function uptimeLine(): string {
  const [one, five, fifteen] = loadavg().map((value) => value.toFixed(2));
  return `load average ${one}, ${five}, ${fifteen} on ${cpus().length} CPUs`;
}

mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
const out = new URL("./results/latest.json", import.meta.url);
// Families not run this time keep their last results (each family's entry says when it ran).
const previous = existsSync(out)
  ? (JSON.parse(readFileSync(out, "utf8")) as { ran_at?: Record<string, string> })
  : {};
const ranAt = {
  ...previous.ran_at,
  ...Object.fromEntries(
    FAMILIES.filter((name) => wanted(name) && !skipped.has(name)).map((name) => [
      name,
      results.started_at,
    ]),
  ),
};
writeFileSync(out, `${JSON.stringify({ ...previous, ...results, ran_at: ranAt }, null, 2)}\n`);
console.log(`\nWrote ${out.pathname}`);
