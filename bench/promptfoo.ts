// ragjudge against promptfoo on the same scripted OpenAI-compatible server (issue 15 §6): the same
// questions and the same LLM calls through both tools, each run as a user runs it (the CLI, cold:
// a fresh process and a fresh home per run), timed wall clock from spawn to exit.
//
// A question costs two calls in both: one answer call (the system under test: a chat completion
// of the question, model `answer-model`) and one judge call (model `judge-model`):
// - promptfoo: its `openai:chat` provider answers, an `llm-rubric` assertion judges;
// - ragjudge: `ragjudge eval --bot URL --judge reference`, the bot being a tiny HTTP bot here (the
//   contract of docs/bots.md) that makes one chat call per question; the reference judge makes one.
// The server counts the calls it answered per model, so each row shows both tools made the same.
//
// promptfoo is never a dependency of the project: it is installed outside it and named by
// PROMPTFOO_BIN (its CLI entry, e.g. .../node_modules/promptfoo/dist/src/entrypoint.js) and
// PROMPTFOO_NODE (the node binary to run it with: promptfoo 0.123.1 needs Node >= 22.22). Without
// PROMPTFOO_BIN the family says how to install it and is skipped. ragjudge runs dist/ (npm run
// build) on the machine's Node.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UNIVERSAL_REPLY } from "./evaluations.js";
import { type RateLimitedProvider, startRateLimitedProvider } from "./rate-limited-provider.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ANSWER_MODEL = "answer-model";
const JUDGE_MODEL = "judge-model";
/** ragjudge's reference judge and promptfoo's llm-rubric both accept it (`pass` is llm-rubric's). */
const REPLY = { ...UNIVERSAL_REPLY, pass: true };

export const PROMPTFOO_INSTALL_HINT =
  "promptfoo bench skipped: set PROMPTFOO_BIN to promptfoo's CLI installed outside the project, e.g. " +
  "`mkdir -p /tmp/promptfoo && cd /tmp/promptfoo && npm init -y && npm install promptfoo@0.123.1`, then " +
  "PROMPTFOO_BIN=/tmp/promptfoo/node_modules/promptfoo/dist/src/entrypoint.js and " +
  'PROMPTFOO_NODE="$(npx -y -p node@24 node -p process.execPath)" (it needs Node >= 22.22)';

export interface PromptfooCommand {
  node: string;
  bin: string;
  version: string;
}

/** The promptfoo CLI named by the environment, or undefined when PROMPTFOO_BIN is unset. */
export function promptfooCommand(env = process.env): PromptfooCommand | undefined {
  const bin = env.PROMPTFOO_BIN?.trim();
  if (!bin) return undefined;
  if (!existsSync(bin)) throw new Error(`PROMPTFOO_BIN ${bin} does not exist`);
  const node = env.PROMPTFOO_NODE?.trim() || process.execPath;
  // The package.json above dist/src/entrypoint.js (or wherever the bin sits) names the version.
  let version = "unknown";
  for (let dir = join(bin, ".."); dir !== join(dir, ".."); dir = join(dir, "..")) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (pkg.name === "promptfoo") {
      version = pkg.version ?? version;
      break;
    }
  }
  return { node, bin, version };
}

export interface SideBySideCase {
  label: string;
  questions: number;
  /** Fixed latency of every call (sigma 0), or the median of a lognormal spread. */
  latency: { medianMs: number; sigma: number };
  /** Questions in flight: ragjudge's --concurrency and promptfoo's -j; undefined = each default. */
  concurrency: number | undefined;
  /**
   * "fresh" (the default): each run makes its tool's home (ragjudge's embedded database,
   * promptfoo's config folder and database), as a first run does. "existing": an untimed
   * one-question run of the same tool makes it first, as every later run finds it.
   */
  home?: "fresh" | "existing";
}

export interface ToolRun {
  seconds: number;
  /**
   * The evaluation's own time as the tool reports it: ragjudge's run from creation to finish
   * (database clock), promptfoo's stats.durationMs. Wall time less this is start-up, import,
   * report and shut-down.
   */
  run_seconds: number;
  answer_calls: number;
  judge_calls: number;
  /** Questions the tool reported judged (ragjudge: scored; promptfoo: passed + failed). */
  judged: number;
}

export interface SideBySideRow {
  case: string;
  questions: number;
  home: "fresh" | "existing";
  latency: string;
  concurrency: string;
  ragjudge_s: number;
  promptfoo_s: number;
  /** Medians of ToolRun.run_seconds. */
  ragjudge_run_s: number;
  promptfoo_run_s: number;
  /** promptfoo / ragjudge median wall time: above 1, ragjudge is faster. */
  ratio_pf_rj: number;
  ragjudge_calls: string;
  promptfoo_calls: string;
  same_calls: boolean;
  ragjudge_runs_s: number[];
  promptfoo_runs_s: number[];
  load_average: number;
}

export interface PromptfooBench {
  promptfoo_version: string;
  promptfoo_node: string;
  ragjudge_node: string;
  repeats: number;
  rows: SideBySideRow[];
}

function questionRows(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    question: `When did the Lanting Metro open Line 1? (#${i})`,
    ground_truth: "Line 1 opened on 18 September 2009.",
  }));
}

/** ragjudge's system under test: docs/bots.md's contract, one chat call per question. */
async function startAnswerBot(llmBaseUrl: string) {
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        try {
          const { question } = JSON.parse(Buffer.concat(chunks).toString()) as {
            question: string;
          };
          const reply = await fetch(`${llmBaseUrl}/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: "Bearer bench" },
            body: JSON.stringify({
              model: ANSWER_MODEL,
              messages: [{ role: "user", content: question }],
            }),
          });
          const body = (await reply.json()) as { choices: { message: { content: string } }[] };
          const answer = body.choices[0]?.message.content ?? "";
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ answer }));
        } catch (error) {
          res.writeHead(502, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: String(error) }));
        }
      })();
    });
  };
  const server = createServer(handle);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ask`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs a command to its end; wall seconds from spawn to exit. Throws on a non-zero exit. */
async function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${args.slice(0, 2).join(" ")} exited ${code}: ${stderr}`);
  return seconds;
}

/** The environment either tool gets: no inherited keys or base URLs, HOME in the run's folder. */
function cleanEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(OPENAI_|RAGJUDGE_|PROMPTFOO_|ANTHROPIC_|AZURE_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, HOME: dir };
}

/** One `ragjudge eval` in `dir` (its embedded home is dir/home: new, or left by an earlier run). */
async function runRagjudge(
  dir: string,
  provider: RateLimitedProvider,
  questions: number,
  concurrency: number | undefined,
): Promise<ToolRun> {
  const bot = await startAnswerBot(provider.baseUrl);
  try {
    const file = join(dir, "questions.jsonl");
    writeFileSync(
      file,
      questionRows(questions)
        .map((row) => JSON.stringify(row))
        .join("\n") + "\n",
    );
    const report = join(dir, "report.json");
    const args = [
      join(ROOT, "bin/ragjudge.js"),
      "eval",
      "--bot",
      bot.url,
      "--questions",
      file,
      "--judge",
      "reference",
      "--no-cache",
      "--format",
      "json",
      "--out",
      report,
      ...(concurrency === undefined ? [] : ["--concurrency", String(concurrency)]),
    ];
    const seconds = await timed(process.execPath, args, dir, {
      ...cleanEnv(dir),
      RAGJUDGE_HOME: join(dir, "home"),
      RAGJUDGE_JUDGE_BASE_URL: provider.baseUrl,
      RAGJUDGE_JUDGE_MODEL: JUDGE_MODEL,
      RAGJUDGE_JUDGE_API_KEY: "bench",
    });
    const { evaluation, summary } = JSON.parse(readFileSync(report, "utf8")) as {
      evaluation: { created_at: string; finished_at: string };
      summary: { scored: number };
    };
    const calls = provider.stats().answeredByModel;
    return {
      seconds,
      run_seconds: (Date.parse(evaluation.finished_at) - Date.parse(evaluation.created_at)) / 1000,
      answer_calls: calls[ANSWER_MODEL] ?? 0,
      judge_calls: calls[JUDGE_MODEL] ?? 0,
      judged: summary.scored,
    };
  } finally {
    await bot.close();
  }
}

/** One `promptfoo eval` in `dir` (its config dir is dir/promptfoo-home: new, or left before). */
async function runPromptfoo(
  command: PromptfooCommand,
  dir: string,
  provider: RateLimitedProvider,
  questions: number,
  concurrency: number | undefined,
): Promise<ToolRun> {
  const providerConfig = (model: string) => ({
    id: `openai:chat:${model}`,
    config: { apiBaseUrl: provider.baseUrl, apiKey: "bench" },
  });
  const config = {
    description: "ragjudge side-by-side",
    prompts: ["{{question}}"],
    providers: [providerConfig(ANSWER_MODEL)],
    defaultTest: {
      options: { provider: providerConfig(JUDGE_MODEL) },
      assert: [
        {
          type: "llm-rubric",
          value: "The answer agrees with the reference answer: {{ground_truth}}",
        },
      ],
    },
    tests: questionRows(questions).map((vars) => ({ vars })),
  };
  writeFileSync(join(dir, "promptfooconfig.json"), JSON.stringify(config));
  const out = join(dir, "results.json");
  const args = [
    command.bin,
    "eval",
    "-c",
    join(dir, "promptfooconfig.json"),
    "--no-cache",
    "--no-progress-bar",
    "--no-table",
    "--no-share",
    "-o",
    out,
    ...(concurrency === undefined ? [] : ["-j", String(concurrency)]),
  ];
  const seconds = await timed(command.node, args, dir, {
    ...cleanEnv(dir),
    PROMPTFOO_CONFIG_DIR: join(dir, "promptfoo-home"),
    PROMPTFOO_DISABLE_TELEMETRY: "1",
    PROMPTFOO_DISABLE_UPDATE: "1",
    PROMPTFOO_DISABLE_SHARING: "1",
    PROMPTFOO_DISABLE_REMOTE_GENERATION: "1",
    PROMPTFOO_DISABLE_REDTEAM_REMOTE_GENERATION: "1",
    // Even with telemetry off it posts one "telemetry disabled" event (fire and forget). Its
    // fetch honours the proxy variables: a closed local port refuses it at once, with no name
    // lookup, while NO_PROXY sends the eval's own calls straight to the scripted server.
    HTTPS_PROXY: "http://127.0.0.1:9",
    HTTP_PROXY: "http://127.0.0.1:9",
    NO_PROXY: "127.0.0.1,localhost",
  });
  const stats = (
    JSON.parse(readFileSync(out, "utf8")) as {
      results: {
        stats: { successes: number; failures: number; errors: number; durationMs: number };
      };
    }
  ).results.stats;
  const calls = provider.stats().answeredByModel;
  return {
    seconds,
    run_seconds: stats.durationMs / 1000,
    answer_calls: calls[ANSWER_MODEL] ?? 0,
    judge_calls: calls[JUDGE_MODEL] ?? 0,
    judged: stats.successes + stats.failures,
  };
}

/** A fresh server per run, so its counts are that run's calls alone. */
async function withProvider<T>(
  latency: SideBySideCase["latency"],
  run: (provider: RateLimitedProvider) => Promise<T>,
): Promise<T> {
  const provider = await startRateLimitedProvider({
    maxConcurrent: Number.POSITIVE_INFINITY,
    medianMs: latency.medianMs,
    sigma: latency.sigma,
    retryAfterSeconds: 1,
    reply: REPLY,
  });
  try {
    return await run(provider);
  } finally {
    await provider.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const round2 = (value: number) => Math.round(value * 100) / 100;
const callsOf = (runs: ToolRun[]) =>
  [...new Set(runs.map((r) => `${r.answer_calls}+${r.judge_calls}`))].join(" / ");

const fixed = (ms: number) => ({ medianMs: ms, sigma: 0 });

export const DEFAULT_CASES: SideBySideCase[] = [
  { label: "0 ms, 16", questions: 200, latency: fixed(0), concurrency: 16 },
  { label: "50 ms, 16", questions: 200, latency: fixed(50), concurrency: 16 },
  { label: "50 ms, defaults", questions: 200, latency: fixed(50), concurrency: undefined },
  {
    label: "lognormal 800 ms, 16",
    questions: 200,
    latency: { medianMs: 800, sigma: 0.35 },
    concurrency: 16,
  },
  // Where the time goes: start-up and shut-down alone, on a new and on an existing home; the
  // same run on an existing home; and ten times the questions, where the per-question cost shows.
  { label: "1 question, 0 ms", questions: 1, latency: fixed(0), concurrency: 16 },
  {
    label: "1 question, 0 ms, existing home",
    questions: 1,
    latency: fixed(0),
    concurrency: 16,
    home: "existing",
  },
  {
    label: "0 ms, 16, existing home",
    questions: 200,
    latency: fixed(0),
    concurrency: 16,
    home: "existing",
  },
  { label: "2,000 questions, 0 ms, 16", questions: 2000, latency: fixed(0), concurrency: 16 },
];

/** A new folder for one run (and its warm-up, for an existing home), removed afterwards. */
async function inNewDir<T>(prefix: string, run: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchPromptfoo(
  command: PromptfooCommand,
  options: { cases?: SideBySideCase[]; repeats?: number } = {},
): Promise<PromptfooBench> {
  const cases = options.cases ?? DEFAULT_CASES;
  const repeats = options.repeats ?? 3;
  const rows: SideBySideRow[] = [];
  for (const c of cases) {
    const load = loadavg()[0] ?? 0;
    const rj: ToolRun[] = [];
    const pf: ToolRun[] = [];
    for (let i = 0; i < repeats; i++) {
      // Alternate which tool goes first, so a drift in the machine's load hits both alike.
      const runRj = () =>
        inNewDir("ragjudge-bench-pf-rj-", async (dir) => {
          if (c.home === "existing") {
            await withProvider(c.latency, (p) => runRagjudge(dir, p, 1, c.concurrency));
          }
          return withProvider(c.latency, (p) => runRagjudge(dir, p, c.questions, c.concurrency));
        });
      const runPf = () =>
        inNewDir("ragjudge-bench-pf-pf-", async (dir) => {
          if (c.home === "existing") {
            await withProvider(c.latency, (p) => runPromptfoo(command, dir, p, 1, c.concurrency));
          }
          return withProvider(c.latency, (p) =>
            runPromptfoo(command, dir, p, c.questions, c.concurrency),
          );
        });
      if (i % 2 === 0) {
        rj.push(await runRj());
        pf.push(await runPf());
      } else {
        pf.push(await runPf());
        rj.push(await runRj());
      }
    }
    for (const [tool, runs] of [
      ["ragjudge", rj],
      ["promptfoo", pf],
    ] as const) {
      const short = runs.find((r) => r.judged !== c.questions);
      if (short) throw new Error(`${tool} judged ${short.judged} of ${c.questions} questions`);
    }
    const rjSeconds = median(rj.map((r) => r.seconds));
    const pfSeconds = median(pf.map((r) => r.seconds));
    rows.push({
      case: c.label,
      questions: c.questions,
      home: c.home ?? "fresh",
      latency:
        c.latency.sigma === 0
          ? `${c.latency.medianMs} ms`
          : `lognormal, median ${c.latency.medianMs} ms, sigma ${c.latency.sigma}`,
      concurrency:
        c.concurrency === undefined ? "defaults (ragjudge 16, promptfoo 4)" : String(c.concurrency),
      ragjudge_s: round2(rjSeconds),
      promptfoo_s: round2(pfSeconds),
      ragjudge_run_s: round2(median(rj.map((r) => r.run_seconds))),
      promptfoo_run_s: round2(median(pf.map((r) => r.run_seconds))),
      ratio_pf_rj: round2(pfSeconds / rjSeconds),
      ragjudge_calls: callsOf(rj),
      promptfoo_calls: callsOf(pf),
      same_calls: callsOf(rj) === callsOf(pf),
      ragjudge_runs_s: rj.map((r) => round2(r.seconds)),
      promptfoo_runs_s: pf.map((r) => round2(r.seconds)),
      load_average: round2(load),
    });
  }
  return {
    promptfoo_version: command.version,
    promptfoo_node: await nodeVersion(command.node),
    ragjudge_node: process.version,
    repeats,
    rows,
  };
}

async function nodeVersion(node: string): Promise<string> {
  const child = spawn(node, ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  await new Promise((resolve) => child.on("exit", resolve));
  return out.trim();
}
