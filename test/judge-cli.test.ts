import { writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, expect, inject, it } from "vitest";
import { judgeCommand } from "../src/cli/commands/judge.js";
import { runCli as runCliIn } from "./support/cli.js";
import { createDatabase } from "./support/postgres-server.js";
import { isChat, promptText, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.js";
import { tempDir } from "./support/temp-dir.js";

const runCli = (args: string[], env: Record<string, string> = {}) =>
  runCliIn(args, { env, cwd: tempDir("judge-cwd") });

const LINES = [
  {
    id: "q1",
    question: "When was Veldmark founded?",
    answer: "Veldmark was founded in 1187 [1].",
    contexts: ["Veldmark was founded in 1187 by salt traders."],
    ground_truth: "1187",
  },
  {
    id: "q2",
    question: "How long is the tram line?",
    answer: "It is 42 km long.",
    contexts: ["The tram line runs 18 km."],
    ground_truth: "18 km",
  },
];

function fixture(lines: unknown[]): string {
  const path = join(tempDir("judge"), "answers.jsonl");
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return path;
}

let llm: ScriptedLlm;
let env: Record<string, string>;

beforeAll(async () => {
  llm = await startScriptedLlm();
  env = {
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: "sk-test-secret",
    DATABASE_URL: await createDatabase(inject("postgresUrl"), "judge"),
    RAGJUDGE_HOME: tempDir("judge-home"),
  };
});
afterAll(async () => {
  await llm.close();
});
beforeEach(() => {
  llm.reset();
  // Scores follow the answer: the invented "42 km" is judged inaccurate.
  llm.on({
    when: isChat,
    reply: (request) => {
      const wrong = promptText(request).includes("42 km");
      return {
        auto: {
          analysis: wrong
            ? "The answer contradicts the document (18 km)."
            : "Matches the document.",
          accuracy: wrong ? 2 : 9,
          completeness: wrong ? 3 : 8,
          clarity: 8,
          reason: wrong ? "Wrong length." : "Correct.",
          suggestion: wrong ? "State 18 km and cite it." : "",
        },
      };
    },
  });
});

/** `ragjudge judge` in this process, with what it prints (no LLM or store needed by these). */
async function judgeInProcess(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stdout += chunk.toString();
      done();
    },
  });
  const code = await judgeCommand(args, out);
  return { code, stdout };
}
it("judges each line with the rubric, prints scores and a summary, and caches responses", async () => {
  const file = fixture(LINES);
  const first = await runCli(["judge", file, "--judge", "rubric"], env);
  expect(first.stderr).toBe("");
  expect(first.code).toBe(0);
  expect(first.stdout).toMatch(/1\s+q1\s+8\.5 pass/);
  expect(first.stdout).toMatch(/2\s+q2\s+3\.5 fail/);
  expect(first.stdout).toMatch(/rubric\s+2\s+2\s+0\s+6\.00\s+[\d.]+\s+50\.0%/);
  expect(first.stdout).not.toContain("sk-test-secret");
  const calls = llm.requests.filter(isChat).length;
  expect(calls).toBe(2);

  const again = await runCli(["judge", file, "--judge", "rubric", "--format", "json"], env);
  expect(again.code).toBe(0);
  expect(llm.requests.filter(isChat).length).toBe(calls);
  const report = JSON.parse(again.stdout) as {
    usage: { cached_calls: number };
    summary: { rubric: { pass_rate: number } };
  };
  expect(report.usage.cached_calls).toBe(2);
  expect(report.summary.rubric.pass_rate).toBe(0.5);

  // --lang zh: the table's words in Chinese, the figures the same (from the cache).
  const chinese = await runCli(["judge", file, "--judge", "rubric", "--lang", "zh"], env);
  expect(chinese.code).toBe(0);
  expect(chinese.stdout).toMatch(/评判\s+行数\s+计入\s+评判错误\s+平均原始分/);
  expect(chinese.stdout).toMatch(/rubric\s+2\s+2\s+0\s+6\.00\s+[\d.]+\s+50\.0%/);
  expect(chinese.stdout).toContain("平均值和通过率不计入评判错误：它们没有得分。");
  expect(chinese.stdout).not.toContain("Averages");
  expect(llm.requests.filter(isChat).length).toBe(calls);

  await runCli(["judge", file, "--judge", "rubric", "--no-cache", "--format", "jsonl"], env);
  expect(llm.requests.filter(isChat).length).toBe(calls + 2);
});

it("keeps a judge's unparseable reply as judge_error and out of the averages", async () => {
  llm.reset();
  llm.on({
    when: (r) => isChat(r) && promptText(r).includes("42 km"),
    reply: { content: "{not json at all" },
  });
  llm.on({
    when: isChat,
    reply: {
      auto: {
        analysis: "ok",
        accuracy: 9,
        completeness: 8,
        clarity: 8,
        reason: "ok",
        suggestion: "",
      },
    },
  });
  const { code, stdout } = await runCli(
    ["judge", fixture(LINES), "--judge", "rubric", "--no-cache"],
    env,
  );
  expect(code).toBe(0);
  expect(stdout).toMatch(/2\s+q2\s+judge_error/);
  expect(stdout).toMatch(/rubric\s+2\s+1\s+1\s+8\.50/);
});

// The next three make no LLM call, so the scripted server's rules and request log do not matter
// to them: they run side by side.
it.concurrent("names the line and field when the reference judge has no ground truth", async () => {
  const { code, stderr } = await runCli(
    ["judge", fixture([{ question: "q?", answer: "a" }]), "--judge", "reference"],
    env,
  );
  expect(code).toBe(2);
  expect(stderr).toContain("line 1: ground_truth: required by the reference judge");
});

it.concurrent(
  "explains how to configure an LLM when none is, and suggests the offline judge",
  async () => {
    const { code, stderr } = await runCli(["judge", fixture(LINES), "--judge", "review"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/needs an LLM: set OPENAI_BASE_URL.*--judge offline/s);
  },
);

it.concurrent(
  "runs the baseline judges by name with no LLM and no database, and refuses a line without a reference",
  async () => {
    const args = [
      fixture(LINES),
      "--judge",
      "token_precision,contains_reference",
      "--format",
      "json",
    ];
    const { code, stdout } = await judgeInProcess(args);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      results: Array<{
        results: {
          token_precision: { score: number };
          contains_reference: { passed: boolean };
        };
      }>;
    };
    const [right, wrong] = report.results;
    // q1: veldmark, was, founded, in, 1187, 1 ("[1]") against the context's words: 5 of 6.
    expect(right?.results.token_precision.score).toBe(0.8333);
    expect(right?.results.contains_reference.passed).toBe(true);
    // q2: "42 km" does not contain "18 km".
    expect(wrong?.results.contains_reference.passed).toBe(false);

    const noReference = await runCli([
      "judge",
      fixture([{ question: "Q?", answer: "A", contexts: ["A"] }]),
      "--judge",
      "contains_reference",
    ]);
    expect(noReference.code).not.toBe(0);
    expect(noReference.stderr).toMatch(/ground_truth.*required by the contains_reference judge/s);
  },
);

it.concurrent(
  "claims_offline prints RAGChecker's claim-level metrics, labelled as approximate, with no LLM",
  async () => {
    const run = (format: string) =>
      judgeInProcess([fixture(LINES), "--judge", "claims_offline", "--format", format]);
    const table = await run("table");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(
      "Claim-level metrics of claims_offline, as RAGChecker computes them (mean % over 2 answer(s)); " +
        "approximate: sentences as claims, offline entailment",
    );
    // q1 states the reference "1187" (recall 1) in a sentence the reference does not hold
    // (precision 0); q2 states neither. Both references are in their context: claim recall 100.
    expect(table.stdout).toMatch(/overall +recall +50\.0\n/);
    expect(table.stdout).toMatch(/retriever +claim recall +100\.0\n/);

    const json = JSON.parse((await run("json")).stdout) as {
      summary: {
        claims_offline: { claim_metrics: { overall: { recall: number } }; approximate: string };
      };
      results: { results: { claims_offline: { verdict: { diagnosis: { missed: unknown[] } } } } }[];
    };
    expect(json.summary.claims_offline.claim_metrics.overall.recall).toBe(50);
    expect(json.summary.claims_offline.approximate).toBe(
      "approximate: sentences as claims, offline entailment",
    );
    expect(json.results[1]?.results.claims_offline.verdict.diagnosis.missed).toEqual([
      { claim: "18 km", chunk: 1 },
    ]);
  },
);

it.concurrent(
  "judges offline with no LLM and no database, saying the scores are heuristic",
  async () => {
    // In process: no LLM, no store; the other tests check the spawned CLI's exit codes and output.
    const args = [fixture(LINES), "--judge", "offline", "--format", "json"];
    const { code, stdout } = await judgeInProcess(args);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      usage: null;
      results: Array<{
        id: string;
        results: {
          offline: {
            raw_score: number;
            passed: boolean;
            verdict: { heuristic: boolean; reason: string; f1: number };
          };
        };
      }>;
    };
    expect(report.usage).toBeNull();
    const [right, wrong] = report.results;
    expect(right?.results.offline.verdict.heuristic).toBe(true);
    expect(right?.results.offline.verdict.reason).toMatch(/^Heuristic \(no LLM\)/);
    expect(right?.results.offline.passed).toBe(true);
    expect(wrong?.results.offline.passed).toBe(false);
    expect(right?.results.offline.raw_score).toBeGreaterThan(
      wrong?.results.offline.raw_score ?? 10,
    );
  },
);

it.concurrent(
  "with --lang zh words the offline judge's reason, suggestion, analysis and limits in Chinese",
  async () => {
    const args = [fixture(LINES), "--judge", "offline", "--format", "jsonl", "--lang", "zh"];
    const { code, stdout } = await judgeInProcess(args);
    expect(code).toBe(0);
    type Verdict = {
      reason: string;
      suggestion: string;
      analysis: string;
      limits: string[];
      reason_message: { code: string; message: string };
    };
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { results: { offline: { verdict: Verdict } } });
    const wrong = lines[1]!.results.offline.verdict;
    expect(wrong.reason).toMatch(/^启发式评判（未用 LLM）：.*与参考答案矛盾/);
    expect(wrong.suggestion).toMatch(/^请/);
    expect(wrong.analysis).toMatch(/^拒答 无；/);
    expect(wrong.limits).toHaveLength(1);
    expect(wrong.limits[0]).toMatch(/^对照参考答案时/);
    // The code keeps its English words, for a program reading the output.
    expect(wrong.reason_message).toMatchObject({ code: "offline.reason" });
    expect(wrong.reason_message.message).toMatch(/^Heuristic \(no LLM\)/);
  },
);

it("during an LLM outage judges every line as judge_error, counts requests apart from calls, exits 3", async () => {
  llm.reset();
  llm.on({ when: isChat, reply: { status: 503, message: "upstream overloaded" } });
  const dir = tempDir("judge-outage");
  const config = join(dir, "ragjudge.config.json");
  writeFileSync(
    config,
    JSON.stringify({ llm: { backoff_ms: 0, max_backoff_ms: 0, max_retries: 3 } }),
  );
  const args = ["judge", fixture(LINES), "--judge", "rubric", "--no-cache", "--config", config];
  const table = await runCli(args, env);
  expect(table.code).toBe(3);
  expect(table.stdout).toMatch(/1\s+q1\s+judge_error/);
  expect(table.stdout).toMatch(/2\s+q2\s+judge_error/);
  expect(table.stdout).toMatch(/rubric\s+2\s+0\s+2\s/);
  // 2 logical calls, each 1 request + 3 retries.
  expect(table.stdout).toContain("LLM calls: 2 (0 from cache, 2 failed); HTTP requests: 8;");
  expect(llm.requests.filter(isChat)).toHaveLength(8);
  expect(table.stderr).toMatch(/nothing could be judged: 2 judge error\(s\)/);
  expect(table.stderr).toMatch(/line 1: rubric: judge_error: HTTP 503 .* after 4 attempt\(s\)/);

  const json = await runCli([...args, "--format", "json"], env);
  expect(json.code).toBe(3);
  const parsed = JSON.parse(json.stdout) as {
    summary: { rubric: { judge_errors: number; counted: number; mean_score: number | null } };
    usage: { calls: number; attempts: number; failed_calls: number };
    results: { ok: boolean; results: { rubric: Record<string, unknown> } }[];
  };
  expect(parsed.summary.rubric).toMatchObject({ judge_errors: 2, counted: 0, mean_score: null });
  expect(parsed.usage).toMatchObject({ calls: 2, attempts: 8, failed_calls: 2 });
  for (const line of parsed.results) {
    expect(line.ok).toBe(true);
    expect(line.results.rubric).toMatchObject({
      outcome: "judge_error",
      score: null,
      raw_score: null,
      verdict: null,
      error: { cause: "LlmHttpError", retryable: true },
    });
  }
});
