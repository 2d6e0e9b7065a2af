import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, inject, it } from "vitest";
import {
  findOrCreateUser,
  LOCAL_USER_NAME,
  listEvaluationRecords,
  openStore,
} from "../src/store/index.js";
import { gateCommand } from "../src/cli/commands/gate.js";
import { UsageError } from "../src/cli/usage-error.js";
import { runCli as runCliIn } from "./support/cli.js";
import { createDatabase, freePort } from "./support/postgres-server.js";
import { tempDir } from "./support/temp-dir.js";

const runCli = (args: string[], env: Record<string, string> = {}) => runCliIn(args, { env });

const HIT = {
  node_id: "n1",
  content: "The Duchy of Normandy began in 911 under Rollo, a Viking leader.",
  source: "lexical",
};
const base = {
  conversation_id: "c1",
  retrieval_record: { id: "r1", query: "When was the duchy founded?" },
  retrieval_hits: [HIT],
  generation_record: { id: "g1" },
};
const good = {
  ...base,
  message_id: "good",
  generation_output: {
    answer: "The duchy began in 911 under Rollo [n1].",
    citations: [{ node_id: "n1" }],
  },
};
const uncited = {
  ...base,
  message_id: "uncited",
  generation_output: { answer: "The duchy began in 911 under Rollo.", citations: [] },
};

/** Two valid answers (one failing), a wrong type, malformed JSON and invalid UTF-8. */
function writeFixture(): string {
  const dir = tempDir("cli");
  const path = join(dir, "answers.jsonl");
  const wrongType = { ...good, message_id: "typed", retrieval_hits: "none" };
  writeFileSync(
    path,
    Buffer.concat([
      Buffer.from(`${JSON.stringify(good)}\n${JSON.stringify(wrongType)}\n{"conversation_id":\n`),
      Buffer.from([0xff, 0xfe, 0x0a]),
      Buffer.from(`${JSON.stringify(uncited)}\n`),
    ]),
  );
  return path;
}

// Each test has its own store (or none), so they run side by side.
it.concurrent(
  "gates a file into the embedded store: verdict table, line errors, exit code 1",
  async () => {
    const home = tempDir("cli-home");
    const { code, stdout, stderr } = await runCli(["gate", writeFixture()], {
      RAGJUDGE_HOME: home,
    });
    expect(code).toBe(1);
    expect(stderr).toContain("line 2: retrieval_hits: Invalid input: expected array");
    expect(stderr).toMatch(/line 3: malformed JSON/);
    expect(stderr).toContain("line 4: invalid UTF-8");
    expect(stdout).toMatch(/c1\/good\s+pass\s+show/);
    expect(stdout).toMatch(/c1\/uncited\s+fail\s+refuse\s+.*require_citations:fail/);
    expect(stdout).toMatch(/invalid\s+3/);

    const store = await openStore({ home });
    try {
      const user = await findOrCreateUser(store.db, LOCAL_USER_NAME);
      const records = await listEvaluationRecords(store.db, user.id);
      expect(records.map((r) => r.message_id).sort()).toEqual(["good", "uncited"]);
    } finally {
      await store.close();
    }
  },
  60_000,
);

it.concurrent(
  "writes JSON Lines against a PostgreSQL server, one line per input line",
  async () => {
    const databaseUrl = await createDatabase(inject("postgresUrl"), "cli");
    const home = tempDir("cli-home");
    const { code, stdout } = await runCli(["gate", writeFixture(), "--format", "jsonl"], {
      DATABASE_URL: databaseUrl,
      RAGJUDGE_HOME: home,
    });
    expect(code).toBe(1);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.line)).toEqual([1, 2, 3, 4, 5]);
    expect(lines[0]).toMatchObject({
      status: "pass",
      record_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(lines[4]).toMatchObject({ status: "fail", message_id: "uncited" });
    expect(lines[1]).toMatchObject({ error: expect.stringContaining("retrieval_hits") });
  },
);

it.concurrent("emits JUnit XML without storing, and exits 2 on invalid lines alone", async () => {
  const dir = tempDir("cli");
  const path = join(dir, "answers.jsonl");
  writeFileSync(path, `${JSON.stringify(good)}\n{"broken":\n`);
  const { code, stdout } = await runCli(["gate", path, "--format", "junit", "--no-store"]);
  expect(code).toBe(2);
  expect(stdout).toContain(
    '<testsuite name="ragjudge gate" tests="2" failures="0" errors="1" skipped="0">',
  );
  expect(stdout).toContain(
    '<testcase classname="gate" name="line 2"><error message="malformed JSON',
  );
});

it.concurrent("explains usage errors as a UsageError, which the CLI exits 2 on", async () => {
  // In process: the CLI's UsageError -> exit 2 is checked by spawned runs in judge-cli.test.ts and
  // eval-cli.test.ts; what is gate's own here is the message.
  const usage = gateCommand(["--format", "yaml", "x.jsonl"]);
  await expect(usage).rejects.toBeInstanceOf(UsageError);
  await expect(usage).rejects.toThrow("--format must be one of table, json, jsonl, junit");
});

it.concurrent(
  "exits 3, not 1, when the command crashes (a database that cannot be reached)",
  async () => {
    const port = await freePort(); // nothing listens there
    const dir = tempDir("crash");
    const file = join(dir, "answers.jsonl");
    writeFileSync(file, `${JSON.stringify(good)}\n`);
    const { code, stderr } = await runCli(["gate", file], {
      DATABASE_URL: `postgres://ragjudge@127.0.0.1:${port}/none`,
    });
    expect(stderr).toMatch(/ECONNREFUSED/);
    expect(code).toBe(3);
  },
);
