// Issue 12 §1.3: a provider that echoes the API key it was sent (OpenAI's 401 says "Incorrect API
// key provided: sk-…") must not put the key into stored rows, reports, stdout or stderr.

import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { runCli } from "./support/cli.js";
import { createDatabase } from "./support/postgres-server.js";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.js";
import { tempDir } from "./support/temp-dir.js";

const CORPUS = fileURLToPath(new URL("../examples/corpus/", import.meta.url));

let llm: ScriptedLlm;
// Both tests' CLI runs share one PostgreSQL server database (the keys differ; neither store is
// what is tested), so neither pays for creating an embedded home.
let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await createDatabase(inject("postgresUrl"), "redaction");
  llm = await startScriptedLlm({
    rules: [
      {
        reply: (request) => ({
          status: 401,
          message: `Incorrect API key provided: ${String(request.headers.authorization).replace(/^Bearer /, "")}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        }),
      },
    ],
  });
});
afterAll(async () => {
  await llm.close();
});

const dir = tempDir("redaction");
function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

// The two tests use different keys, stores and homes, so they run side by side.
it.concurrent(
  "keeps an echoed judge key out of evaluation_results, the JSON report, stdout and stderr",
  async () => {
    // Not shaped like any provider's key: only the configured-secret redaction can catch it.
    const key = `gateway-${randomBytes(12).toString("hex")}`;
    const questions = write(
      "questions.jsonl",
      `${JSON.stringify({ question: "When did the Lanting Metro open Line 1?", ground_truth: "2009." })}\n`,
    );
    const out = join(dir, "report.json");
    const result = await runCli(
      [
        "eval",
        "--collection",
        "lanting",
        "--docs",
        CORPUS,
        "--questions",
        questions,
        "--judge",
        "review",
        "--format",
        "json",
        "--out",
        out,
      ],
      {
        cwd: dir,
        env: {
          RAGJUDGE_HOME: join(dir, "home"),
          DATABASE_URL: databaseUrl,
          RAGJUDGE_JUDGE_BASE_URL: llm.baseUrl,
          RAGJUDGE_JUDGE_API_KEY: key,
          RAGJUDGE_JUDGE_MODEL: "judge-model",
        },
      },
    );
    // The provider did receive the key and did echo it: otherwise this test would prove nothing.
    expect(llm.requests.some((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);

    const report = readFileSync(out, "utf8");
    expect(report).toContain("HTTP 401");
    expect(report).toContain("[REDACTED]");
    expect(report).not.toContain(key);
    expect(result.stdout).not.toContain(key);
    expect(result.stderr).not.toContain(key);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const rows = await client.query<{ row: string }>(
        "select row_to_json(r)::text as row from evaluation_results r",
      );
      expect(rows.rows.length).toBe(1);
      expect(rows.rows[0]?.row).toContain("HTTP 401");
      // The built-in bot reviews its answer with the judge model too; a failing configured model is
      // a BOT_ERROR naming it (issue 12 §4.11), where the key would otherwise be echoed.
      expect(rows.rows[0]?.row).toContain("BOT_ERROR");
      expect(rows.rows[0]?.row).toContain("the judge model judge-model failed");
      expect(rows.rows[0]?.row).toContain("[REDACTED]");
      const runs = await client.query<{ row: string }>(
        "select row_to_json(e)::text as row from evaluations e",
      );
      for (const { row } of [...rows.rows, ...runs.rows]) expect(row).not.toContain(key);
    } finally {
      await client.end();
    }
  },
  120_000,
);

it.concurrent(
  "keeps an echoed key out of `ragjudge judge` output",
  async () => {
    const key = `sk-proj-${randomBytes(16).toString("hex")}`;
    const file = write(
      "answers.jsonl",
      `${JSON.stringify({ question: "Q?", answer: "A.", contexts: ["A."], ground_truth: "A." })}\n`,
    );
    // JSONL output carries each judge_error's message, where the echo would show.
    const result = await runCli(["judge", file, "--judge", "rubric", "--format", "jsonl"], {
      cwd: dir,
      env: {
        RAGJUDGE_HOME: join(dir, "judge-home"),
        DATABASE_URL: databaseUrl,
        OPENAI_BASE_URL: llm.baseUrl,
        OPENAI_API_KEY: key,
      },
    });
    expect(llm.requests.some((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
    const output = result.stdout + result.stderr;
    expect(output).toContain("HTTP 401");
    expect(output).toContain("[REDACTED]");
    expect(output).not.toContain(key);
  },
  60_000,
);
