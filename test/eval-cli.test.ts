import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { EvaluationReport } from "../src/evals/reports/index.js";
import {
  findOrCreateUser,
  LOCAL_USER_NAME,
  listQuestionSets,
  openStore,
} from "../src/store/index.js";
import { evalCommand } from "../src/cli/commands/eval.js";
import { runCli, spawnCli, type SpawnedCli } from "./support/cli.js";
import { startScriptedLlm } from "./support/scripted-llm.js";
import { createDatabase } from "./support/postgres-server.js";
import { tempDir } from "./support/temp-dir.js";

const CORPUS = fileURLToPath(new URL("../examples/corpus/", import.meta.url));

const QUESTIONS = [
  {
    question: "When did the Lanting Metro open Line 1?",
    ground_truth: "Line 1 opened on 18 September 2009.",
    question_type: "FACTUAL",
  },
  {
    question: "How many buildings did the Great Fire of 1869 destroy?",
    ground_truth: "412 buildings.",
    question_type: "factual",
  },
  { question: "澜汀大学成立于哪一年？", ground_truth: "1952年。" },
];

const dir = tempDir("eval-cli");
const home = join(dir, "home");
const env: Record<string, string> = { RAGJUDGE_HOME: home };
const run = (args: string[], extra: Record<string, string> = {}) =>
  runCli(args, { env: { ...env, ...extra }, cwd: dir });

function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const jsonl = (name: string, rows: object[]) =>
  write(name, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");

const evaluationIdOf = (stderr: string) =>
  /Evaluation ([0-9a-f-]{36}):/.exec(stderr)?.[1] ?? "(none)";

// Three chains on their own stores run side by side: this describe and the worker each on a
// PostgreSQL server database, `npm start` then Ctrl-C on one embedded home. Within a chain, tests
// run in order (`it.sequential`). The reports, exit codes and thresholds checked here do not
// depend on the store, and each of this describe's ten CLI runs then skips starting embedded
// PGlite (~1.3 s of CPU); the embedded home's first run, resume and Ctrl-C are the second chain's.
describe("ragjudge eval", { concurrent: true }, () => {
  let firstId: string;
  let questionSetId: string;
  let first: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    env.DATABASE_URL = await createDatabase(inject("postgresUrl"), "evalcli");
    // Ingest with --docs and evaluate a JSONL file: the path most users take first.
    const file = jsonl("lanting.jsonl", QUESTIONS);
    first = await run(["eval", "--collection", "lanting", "--docs", CORPUS, "--questions", file]);
    expect(first.stderr).toContain('Ingested into "lanting"');
    expect(first.code).toBe(0);
    firstId = evaluationIdOf(first.stderr);
    questionSetId = /question set "lanting" \(([0-9a-f-]{36})\)/.exec(first.stderr)?.[1] ?? "";
  }, 120_000);

  it.sequential(
    "imports a JSONL file, shows progress on stderr and prints the table report",
    () => {
      expect(first.stderr).toContain("Imported 3 questions from");
      expect(first.stderr).toMatch(/3\/3\s+100%\s+COMPLETED/);
      expect(first.stdout).toMatch(/status\s+COMPLETED/);
      expect(first.stdout).toMatch(/questions\s+3 total, 3 completed, 3 scored/);
      expect(first.stdout).toMatch(/offline\s+3\s+[\d.]+\s+[\d.]+\s+[\d.]+%\s+[\d.]+\s+[\d.]+/);
      expect(first.stdout).toMatch(/FACTUAL\s+2\s+2/);
      expect(first.stdout).toMatch(/3\s+USER_DEFINED\s+澜汀大学成立于哪一年？\s+SCORED/);
      expect(questionSetId).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it.sequential(
    "imports a CSV file and writes the JSON report to --out with every result",
    async () => {
      const csv = write(
        "lanting.csv",
        "question,ground_truth,question_type\n" +
          '"When did the Lanting Metro open Line 1?","18 September 2009",FACTUAL\n' +
          "How long does the Gull Island ferry crossing take?,35 minutes.,\n",
      );
      const out = join(dir, "report.json");
      const result = await run([
        "eval",
        "--collection",
        "lanting",
        "--questions",
        csv,
        "--format",
        "json",
        "--out",
        out,
      ]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/status\s+COMPLETED/);
      expect(result.stdout).toContain(`Report (json) written to ${out}`);
      const report = JSON.parse(readFileSync(out, "utf8")) as EvaluationReport;
      expect(report.summary).toMatchObject({ total: 2, scored: 2 });
      expect(report.evaluation.status).toBe("COMPLETED");
      expect(report.results.map((r) => r.question_type)).toEqual(["FACTUAL", "USER_DEFINED"]);
      for (const r of report.results) {
        expect(r.answer?.length).toBeGreaterThan(0);
        expect(r.ground_truth.length).toBeGreaterThan(0);
        expect(r.sources.length).toBeGreaterThan(0);
        expect(Array.isArray(r.citations)).toBe(true);
        expect(r.gate).toMatch(/pass|partial|fail|skipped/);
        expect(r.status).toBe("SCORED");
        expect(r.latency_ms).toBeGreaterThan(0);
        expect(Object.keys(r.judges.offline?.metrics ?? {})).toEqual(
          expect.arrayContaining(["exact_match", "f1", "rouge_l", "groundedness"]),
        );
      }
    },
    60_000,
  );

  it.sequential(
    "runs an existing question set by id and writes JUnit XML alone on stdout",
    async () => {
      const result = await run([
        "eval",
        "--collection",
        "lanting",
        "--questions",
        questionSetId,
        "--format",
        "junit",
      ]);
      expect(result.code).toBe(0);
      expect(result.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      expect(result.stdout.match(/<testcase /g)).toHaveLength(3);
      expect(result.stdout).toContain('name="#3 澜汀大学成立于哪一年？"');
      // The person's summary goes to stderr, so stdout stays valid XML.
      expect(result.stderr).toMatch(/average score\s+[\d.]+/);
      expect(result.stderr).not.toContain("Imported");
    },
    60_000,
  );

  it.sequential(
    "re-attaches to a finished evaluation with --resume and reports it in Markdown",
    async () => {
      const result = await run(["eval", "--resume", firstId, "--format", "markdown"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("# Evaluation: lanting");
      expect(result.stdout).toContain("| status | COMPLETED |");
      expect(result.stdout).toMatch(
        /\| 1 \| FACTUAL \| When did the Lanting Metro open Line 1\? \| SCORED \|/,
      );
    },
    60_000,
  );

  it.sequential(
    "rejects a bad question file naming every bad row, and stores and writes nothing",
    async () => {
      const bad = jsonl("bad.jsonl", [
        QUESTIONS[0] as object,
        { question: "", ground_truth: "x" },
        { question: "Why?", question_type: "WEIRD" },
        { question: "when did the lanting metro open line 1", ground_truth: "dup" },
      ]);
      const out = join(dir, "never.md");
      const result = await run([
        "eval",
        "--collection",
        "lanting",
        "--questions",
        bad,
        "--out",
        out,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("3 invalid rows; nothing was stored");
      expect(result.stderr).toMatch(/row 2: question_text: /);
      expect(result.stderr).toMatch(/row 3: question_type: "WEIRD" is not one of/);
      expect(result.stderr).toContain("row 4: question_text: duplicate of row 1");
      expect(existsSync(out)).toBe(false);
      const store = await openStore({ databaseUrl: env.DATABASE_URL });
      try {
        const user = await findOrCreateUser(store.db, LOCAL_USER_NAME);
        const names = (await listQuestionSets(store.db, user.id)).map((s) => s.name);
        expect(names).not.toContain("bad");
      } finally {
        await store.close();
      }
    },
    60_000,
  );

  it.sequential(
    "exits 1 when a threshold fails, saying which",
    async () => {
      const result = await run([
        "eval",
        "--collection",
        "lanting",
        "--questions",
        questionSetId,
        "--min-pass-rate",
        "1.01",
        "--max-errors",
        "0",
      ]);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/--min-pass-rate\s+FAILED\s+pass rate/);
      expect(result.stdout).toMatch(/--max-errors\s+ok/);
      expect(result.stderr).toMatch(
        /FAILED: pass rate [\d.]+ \(3 scored\) is below --min-pass-rate 1\.01/,
      );
    },
    60_000,
  );

  it.sequential(
    "prints what the run cost, and pauses with --max-cost before the run passes it",
    async () => {
      // Every judge call: 1,000 prompt tokens (400 cached) and 100 out, on gpt-4o-mini by default:
      // $0.00018 a call. The limit leaves room for one answer's judging, not a second.
      const llm = await startScriptedLlm({
        usage: { prompt_tokens: 1000, completion_tokens: 100, cached_tokens: 400 },
        rules: [{ reply: { auto: { score: 4, reasoning: "Matches." } } }],
      });
      const answers = jsonl(
        "priced-answers.jsonl",
        QUESTIONS.map((q) => ({ ...q, answer: q.ground_truth })),
      );
      try {
        const result = await run(
          ["eval", "--answers", answers, "--judge", "reference", "--max-cost", "0.0002"],
          { OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: "test-key" },
        );
        expect(result.stderr).toMatch(
          /Evaluation [0-9a-f-]{36} paused: cost limit \$0\.00020 reached: the next question could pass it, at 1\/3/,
        );
        expect(result.stdout).toMatch(/status\s+PAUSED: cost limit \$0\.00020 reached/);
        expect(result.stdout).toMatch(
          /cost\s+\$0\.00018 \(per question: mean \$0\.00018, max \$0\.00018\)/,
        );
        expect(result.stdout).toMatch(
          /judge reference\s+judge\s+gpt-4o-mini\s+1\s+1000\s+400\s+100\s+\$0\.00018/,
        );
        expect(llm.requests.length).toBe(1);
        expect(result.stderr).toMatch(/Evaluation [0-9a-f-]{36} paused: cost limit/);
        // Resumed under a higher limit, it answers the rest.
        const id = /Evaluation ([0-9a-f-]{36}) paused/.exec(result.stderr)?.[1] ?? "(none)";
        const resumed = await run(["eval", "--resume", id, "--max-cost", "1"], {
          OPENAI_BASE_URL: llm.baseUrl,
          OPENAI_API_KEY: "test-key",
        });
        expect(resumed.code).toBe(0);
        expect(resumed.stdout).toMatch(/status\s+COMPLETED/);
        expect(resumed.stdout).toMatch(/cost\s+\$0\.00054 /);
        expect(llm.requests.length).toBe(3);

        // Paused again (without the response cache, which now holds every judging), then resumed
        // with no limit at all: it answers the rest.
        const env = { OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: "test-key" };
        const capped = await run(
          [
            ...["eval", "--answers", answers, "--judge", "reference"],
            ...["--no-cache", "--max-cost", "0.0002"],
          ],
          env,
        );
        const again = /Evaluation ([0-9a-f-]{36}) paused/.exec(capped.stderr)?.[1] ?? "(none)";
        expect(llm.requests.length).toBe(4);
        const unlimited = await run(["eval", "--resume", again, "--max-cost", "none"], env);
        expect(unlimited.code).toBe(0);
        expect(unlimited.stdout).toMatch(/status\s+COMPLETED/);
        expect(llm.requests.length).toBe(6);
      } finally {
        await llm.close();
      }
    },
    120_000,
  );

  it.sequential(
    "exits 3, not 0, when an LLM outage leaves no question scored",
    async () => {
      const llm = await startScriptedLlm();
      llm.on({ reply: { status: 503, message: "upstream overloaded" } });
      const config = write(
        "outage.config.json",
        JSON.stringify({ llm: { backoff_ms: 0, max_backoff_ms: 0, max_retries: 1 } }),
      );
      try {
        const result = await run(
          [
            ...["eval", "--collection", "lanting", "--questions", questionSetId],
            ...["--judge", "rubric", "--config", config],
          ],
          { OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: "test-key" },
        );
        expect(result.code).toBe(3);
        expect(result.stderr).toMatch(/INCOMPLETE: no question was scored: 3 bot error\(s\)/);
        // The embedder fails first (retrieval); the client tried twice (max_retries 1), the item once.
        expect(result.stdout).toMatch(/BOT_ERROR\s+bot error: .*HTTP 503 .* after 2 attempt\(s\)/);
        expect(llm.requests.length).toBe(3 * 2);
      } finally {
        await llm.close();
      }
    },
    120_000,
  );

  it.sequential(
    "exits 1 on regressions against a baseline run, matched by question text",
    async () => {
      // The same questions in another set, with ground truths the answers cannot match.
      const wrong = jsonl(
        "lanting-wrong.jsonl",
        QUESTIONS.map((q) => ({
          ...q,
          ground_truth: "Nobody knows; the records were lost at sea.",
        })),
      );
      const result = await run([
        "eval",
        "--collection",
        "lanting",
        "--questions",
        wrong,
        "--baseline",
        firstId,
      ]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain("Regressions against the baseline");
      expect(result.stdout).toMatch(/--baseline\s+FAILED\s+[1-3] regression\(s\)/);
      expect(result.stderr).toMatch(
        /FAILED: regression on #1 "When did the Lanting Metro open Line 1\?": /,
      );

      // With --lang zh, the reasons on stderr and in the JUnit report are worded in Chinese.
      const junit = join(dir, "regressions.xml");
      const zh = await run([
        ...["eval", "--resume", evaluationIdOf(result.stderr), "--baseline", firstId],
        ...["--lang", "zh", "--format", "junit", "--out", junit],
      ]);
      expect(zh.code).toBe(1);
      expect(zh.stderr).toMatch(/FAILED: 第 1 题“When did the Lanting Metro open Line 1\?”退步：/);
      expect(zh.stderr).not.toContain("regression on");
      expect(zh.stdout).toMatch(/--baseline\s+FAILED\s+3 个匹配的问题中退步 [1-3] 个/);
      const xml = readFileSync(junit, "utf8");
      expect(xml).toMatch(/<failure type="NOT_PASSED" message="得分 /);
      expect(xml).not.toMatch(/message="score /);

      // Against itself, nothing regresses.
      const same = await run(["eval", "--resume", firstId, "--baseline", firstId]);
      expect(same.code).toBe(0);
      expect(same.stdout).toMatch(/--baseline\s+ok\s+0 regression\(s\), 0 improvement\(s\) in 3/);
    },
    60_000,
  );

  it.sequential(
    "explains usage errors before the store opens, and exits 2 through the CLI",
    async () => {
      // Argument errors are parseEvalArgs's (eval-args.test.ts); these two need evalCommand, and
      // throw before it opens a store.
      await expect(
        evalCommand(["--collection", "lanting", "--questions", join(dir, "missing.jsonl")]),
      ).rejects.toThrow(/no such file or question set ".*missing.jsonl"/);
      await expect(
        evalCommand(["--collection", "lanting", "--questions", questionSetId, "--judge", "rubric"]),
      ).rejects.toThrow(/needs an LLM/);
      // One process end to end: a usage error found with the store open is exit code 2.
      const result = await run(["eval", "--collection", "nowhere", "--questions", questionSetId]);
      expect(result.stderr).toMatch(/collection.*nowhere/i);
      expect(result.code).toBe(2);
    },
    120_000,
  );
});

/** Resolves once what `read` returns matches `pattern`; rejects if the CLI exits first. */
function outputMatches(
  cli: SpawnedCli,
  stream: "stdout" | "stderr",
  pattern: RegExp,
): Promise<void> {
  const read = stream === "stdout" ? cli.out : cli.err;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(read())) return;
      cli.child[stream]?.off("data", check);
      cli.child.off("close", exited);
      resolve();
    };
    const exited = (code: number | null) =>
      reject(new Error(`exited ${code} before ${stream} matched ${pattern}: ${read()}`));
    cli.child[stream]?.on("data", check);
    cli.child.once("close", exited);
    check();
  });
}

describe("npm start on a new home, then Ctrl-C on the same home", { concurrent: true }, () => {
  const startHome = tempDir("start-home");

  it.sequential(
    "npm start ingests, imports the bundled questions once, evaluates and prints the summary",
    async () => {
      const first = await runCli(["start"], { env: { RAGJUDGE_HOME: startHome }, cwd: dir });
      expect(first.stderr).toMatch(/24\/24\s+100%\s+COMPLETED/);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/Collection "lanting" .*: 11 documents added/);
      expect(first.stdout).toContain('Question set "lanting-questions"');
      expect(first.stdout).toContain("24 questions imported");
      expect(first.stdout).toMatch(/questions\s+24 total, 24 completed, 24 scored/);
      expect(first.stdout).toMatch(/offline\s+24\s/);
      expect(first.stdout).toMatch(/INFERENTIAL\s+6\s+6/);
      const id = /GET \/api\/v1\/evaluations\/([0-9a-f-]{36})/.exec(first.stdout)?.[1];
      expect(id).toBeDefined();
      expect(first.stdout).toContain(`ragjudge eval --resume ${id} --format markdown`);
      // How to open the run just made in the browser: serve, then its printed login URL lands there.
      expect(first.stdout).toContain(`ragjudge serve --open --path /evaluations/${id}`);

      const second = await runCli(["start"], { env: { RAGJUDGE_HOME: startHome }, cwd: dir });
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/0 documents added, 11 unchanged/);
      expect(second.stdout).toContain("24 questions, already imported");
    },
    180_000,
  );

  it.sequential(
    "Ctrl-C pauses the run and exits 130; --resume finishes it",
    async () => {
      // The home `npm start` made already holds the "lanting" collection: no ingest needed.
      const questions = fileURLToPath(
        new URL("../examples/eval/lanting-questions.jsonl", import.meta.url),
      );
      const cli = spawnCli(
        ["eval", "--collection", "lanting", "--questions", questions, "--concurrency", "1"],
        { env: { RAGJUDGE_HOME: startHome }, cwd: dir },
      );
      await outputMatches(cli, "stderr", /RUNNING/);
      cli.child.kill("SIGINT");
      expect(await cli.exited).toBe(130);
      const stderr = cli.err();
      const id = evaluationIdOf(stderr);
      expect(stderr).toMatch(new RegExp(`Paused evaluation ${id} at \\d+/24`));
      expect(stderr).toContain(`Resume with: ragjudge eval --resume ${id}`);

      const resumed = await runCli(["eval", "--resume", id, "--format", "json"], {
        env: { RAGJUDGE_HOME: startHome },
        cwd: dir,
      });
      expect(resumed.code).toBe(0);
      const report = JSON.parse(resumed.stdout) as EvaluationReport;
      expect(report.evaluation.status).toBe("COMPLETED");
      expect(report.summary).toMatchObject({ total: 24, completed: 24 });
    },
    180_000,
  );
});

it.concurrent(
  "eval --no-worker waits for a `ragjudge worker` process on a PostgreSQL server",
  { timeout: 60_000 },
  async () => {
    const serverEnv = {
      DATABASE_URL: await createDatabase(inject("postgresUrl"), "evalworker"),
      RAGJUDGE_HOME: tempDir("worker-home"),
    };
    const worker = spawnCli(["worker", "--concurrency", "4"], { env: serverEnv, cwd: dir });
    try {
      const file = jsonl("server.jsonl", QUESTIONS);
      const result = await runCli(
        [
          ...["eval", "--collection", "lanting", "--docs", CORPUS, "--questions", file],
          ...["--no-worker", "--format", "json"],
        ],
        { env: serverEnv, cwd: dir },
      );
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as EvaluationReport;
      expect(report.evaluation.status).toBe("COMPLETED");
      expect(report.summary.scored).toBe(3);
      // The worker logs the run's state changes.
      const logged = new RegExp(`evaluation ${report.evaluation.id}\\s+COMPLETED\\s+3/3`);
      await outputMatches(worker, "stdout", logged);
      expect(worker.out()).toContain("worker started");
    } finally {
      worker.child.kill("SIGTERM");
    }
    expect(await worker.exited).toBe(0);
    expect(worker.out()).toContain("worker stopped");
  },
);
