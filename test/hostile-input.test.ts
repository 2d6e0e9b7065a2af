// Issue 12 §3: hostile input on both surfaces. The API and `ragjudge gate` read JSON through the
// same strict parser (src/text/strict-json.ts), so each refusal names the same field.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, expect, inject, it } from "vitest";
import { createApp, listen } from "../src/server/index.js";
import { sql } from "drizzle-orm";
import {
  createApiToken,
  type Db,
  findOrCreateUser,
  LOCAL_USER_NAME,
  listEvaluationRecords,
  openStore,
  queryRows,
} from "../src/store/index.js";
import { runCli } from "./support/cli.js";
import { createDatabase } from "./support/postgres-server.js";
import { describeEachStore } from "./support/stores.js";
import { tempDir } from "./support/temp-dir.js";

const answer = (messageId: string, extra: Record<string, unknown> = {}) => ({
  conversation_id: "c1",
  message_id: messageId,
  retrieval_record: { id: "r1", query: "When was the duchy founded?" },
  retrieval_hits: [
    { node_id: "n1", content: "The Duchy of Normandy began in 911 under Rollo, a Viking leader." },
  ],
  generation_record: { id: "g1" },
  generation_output: {
    answer: "The duchy began in 911 under Rollo [n1].",
    citations: [{ node_id: "n1" }],
  },
  ...extra,
});

const nestedArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** An answer whose first hit carries a `meta` nested `depth` levels below the line's root. */
function deepHitLine(messageId: string, depth: number): string {
  const line = JSON.stringify(
    answer(messageId, { retrieval_hits: [{ node_id: "n1", content: "x", meta: "@" }] }),
  );
  // meta sits at depth 3 (root, retrieval_hits, the hit): the array adds the rest.
  return line.replace('"@"', nestedArray(depth - 3));
}

/**
 * Runs `ragjudge gate` on `lines` and reads back what it stored: in a new embedded home, or in the
 * server database `databaseUrl`. `prepare` runs on the store first.
 */
async function gateFile(
  lines: (string | Buffer)[],
  options: { prepare?: (db: Db) => Promise<unknown>; databaseUrl?: string } = {},
) {
  const dir = tempDir("hostile");
  const path = join(dir, "answers.jsonl");
  writeFileSync(
    path,
    Buffer.concat(lines.map((l) => Buffer.concat([Buffer.from(l), Buffer.from("\n")]))),
  );
  const home = join(dir, "home");
  const { databaseUrl } = options;
  // The CLI runs the store as users do; this process only prepares and reads it back, on its own
  // thread (no second PGlite instance in a worker thread to start).
  const storeOptions = databaseUrl ? { databaseUrl } : { home, thread: false };
  if (options.prepare) {
    const before = await openStore(storeOptions);
    try {
      await options.prepare(before.db);
    } finally {
      await before.close();
    }
  }
  const env: Record<string, string> = databaseUrl
    ? { DATABASE_URL: databaseUrl }
    : { RAGJUDGE_HOME: home };
  const run = await runCli(["gate", path], { env });
  const store = await openStore(storeOptions);
  try {
    const user = await findOrCreateUser(store.db, LOCAL_USER_NAME);
    const stored = (await listEvaluationRecords(store.db, user.id)).map((r) => r.message_id);
    return { ...run, stored: stored.sort() };
  } finally {
    await store.close();
  }
}

// One CLI process for both hostile lines (§3.8, §3.9): each spawn starts a process. The lines are
// refused by the reader before any store sees them, so a server database serves (no new embedded
// home); the next test keeps the embedded store, where the database itself refuses a line.
it("ragjudge gate names a 100,000-deep line and a NUL line by field and stores the lines around them (§3.8, §3.9)", async () => {
  const nul = JSON.stringify(answer("nul")).replace("under Rollo [n1]", "under\\u0000Rollo [n1]");
  const databaseUrl = await createDatabase(inject("postgresUrl"));
  const run = await gateFile(
    [
      JSON.stringify(answer("a")),
      JSON.stringify(answer("b")),
      JSON.stringify(answer("c")),
      deepHitLine("deep", 100_000),
      JSON.stringify(answer("d")),
      nul,
      JSON.stringify(answer("e")),
    ],
    { databaseUrl },
  );
  expect(run.stderr).toMatch(/line 4: retrieval_hits\.0\.meta\.0\..*nested deeper than 64 levels/);
  expect(run.stderr).not.toMatch(/RangeError|Maximum call stack/);
  expect(run.stderr).toContain(
    "line 6: generation_output.answer: contains a NUL character (\\u0000), which cannot be stored",
  );
  expect(run.stored).toEqual(["a", "b", "c", "d", "e"]);
  // Every valid line passes: the invalid lines alone set the exit code (2, bad input).
  expect(run.code).toBe(2);
}, 60_000);

it("ragjudge gate keeps a batch's other lines when the database refuses one, naming it", async () => {
  // A real refusal from the database, not a mock: a CHECK constraint the valid line breaks.
  const run = await gateFile(
    [JSON.stringify(answer("a")), JSON.stringify(answer("poison")), JSON.stringify(answer("b"))],
    {
      prepare: (db) =>
        queryRows(
          db,
          sql`alter table evaluation_records
            add constraint test_refuses_poison check (message_id <> 'poison')`,
        ),
    },
  );
  expect(run.stderr).toMatch(
    /line 2: not stored: the database refused the record: .*check constraint "test_refuses_poison"/,
  );
  // PostgreSQL's reason alone: not the statement, nor the line's values as parameters.
  expect(run.stderr).not.toContain("params:");
  expect(run.stderr).not.toMatch(/line [13]:/);
  expect(run.stored).toEqual(["a", "b"]);
  expect(run.code).toBe(2);
}, 60_000);

describeEachStore("API bodies", (use) => {
  let server: Awaited<ReturnType<typeof listen>>;
  let token = "";

  beforeAll(async () => {
    server = await listen(createApp({ db: use().db, maxBodyBytes: 4 * 1024 * 1024 }), { port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    token = ""; // the store is emptied before each test
  });

  async function post(path: string, body: string | Uint8Array) {
    const { db } = use();
    token ||= await createApiToken(db, (await findOrCreateUser(db, "alice")).id);
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("refuses a 4,000-deep or 100,000-deep hit with a 400 naming the field (§2.7, §3.9)", async () => {
    for (const depth of [4_000, 100_000]) {
      const { status, body } = await post("/api/v1/gate", deepHitLine("deep", depth));
      expect(status).toBe(400);
      expect(body).toMatchObject({
        error: "validation_failed",
        issues: [
          {
            path: expect.stringMatching(/^retrieval_hits\.0\.meta\.0\.0\..*more levels\)$/),
            message: "nested deeper than 64 levels (arrays and objects)",
          },
        ],
      });
    }
    // 64 levels in all are accepted and read back.
    const ok = await post("/api/v1/gate", deepHitLine("ok", 64));
    expect(ok.status).toBe(201);
  });

  it("refuses NUL in answers, names and imports with a 400 naming the field (§3.8)", async () => {
    const nulAnswer = JSON.stringify(answer("nul")).replace(
      "under Rollo [n1]",
      "under\\u0000Rollo [n1]",
    );
    const cases: [string, string, string][] = [
      ["/api/v1/gate", nulAnswer, "generation_output.answer"],
      ["/api/v1/collections", '{"name":"docs\\u0000"}', "name"],
      [
        "/api/v1/question-sets/import",
        JSON.stringify({ name: "s", format: "csv", content: "question\nok?\nbad\u0000?\n" }),
        "content",
      ],
      [
        "/api/v1/question-sets",
        '{"name":"s","questions":[{"question_text":"a\\u0000"}]}',
        "questions.0.question_text",
      ],
    ];
    for (const [path, body, field] of cases) {
      const response = await post(path, body);
      expect(response.status, path).toBe(400);
      expect(response.body.issues, path).toEqual([
        { path: field, message: "contains a NUL character (\\u0000), which cannot be stored" },
      ]);
    }
    const created = await post("/api/v1/collections", '{"name":"docs"}');
    expect(created.status).toBe(201);
    const upload = await post(
      `/api/v1/collections/${created.body.id as string}/documents`,
      JSON.stringify({
        documents: [
          { name: "ok.txt", content: "Fine text." },
          { name: "bin.txt", content_base64: Buffer.from("a\u0000b").toString("base64") },
        ],
      }),
    );
    expect(upload.status).toBe(400);
    expect(upload.body.issues).toEqual([
      {
        path: "documents.1",
        message: expect.stringMatching(/^bin\.txt: contains a NUL character/),
      },
    ]);
  });

  it("answers a request's catastrophic pattern at once, and refuses lookaround (§1.1)", async () => {
    const evil = answer("evil", {
      generation_output: { answer: `${"a".repeat(28)}!`, citations: [{ node_id: "n1" }] },
      config: {
        checks: {
          no_empty_answer: { template_patterns: ["^(a+)+$"] },
          honest_abstention: { abstention_patterns: ["^(a+)+$"] },
        },
      },
    });
    const gated = await post("/api/v1/gate", JSON.stringify(evil));
    expect(gated.status).toBe(201);
    expect(gated.body.checks).toContainEqual(
      expect.objectContaining({ name: "no_empty_answer", status: "pass" }),
    );
    const lookahead = answer("look", {
      config: { checks: { honest_abstention: { abstention_patterns: ["x(?=y)"] } } },
    });
    const refused = await post("/api/v1/gate", JSON.stringify(lookahead));
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([
      {
        path: "config.checks.honest_abstention.abstention_patterns.0",
        message: expect.stringMatching(/^must be a regular expression in RE2 syntax/),
      },
    ]);
  });

  it("refuses invalid UTF-8 and lone surrogates as the CLI does, naming the field (§3.10)", async () => {
    const bytes = Buffer.concat([
      Buffer.from(JSON.stringify(answer("utf8")).split("under Rollo [n1]")[0] as string),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(` [n1].","citations":[{"node_id":"n1"}]}}`),
    ]);
    const badBytes = await post("/api/v1/gate", bytes);
    expect(badBytes.status).toBe(400);
    expect(badBytes.body.issues).toEqual([
      {
        path: "generation_output.answer",
        message: expect.stringMatching(/^invalid UTF-8 at byte \d+/),
      },
    ]);
    const surrogate = JSON.stringify(answer("lone")).replace("under Rollo [n1]", "\\ud800 [n1]");
    const lone = await post("/api/v1/gate", surrogate);
    expect(lone.status).toBe(400);
    expect(lone.body.issues).toEqual([
      {
        path: "generation_output.answer",
        message: expect.stringMatching(/^contains a lone surrogate/),
      },
    ]);
    // Nothing was stored as U+FFFD.
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    expect(await listEvaluationRecords(db, user.id)).toEqual([]);
  });

  it("takes a question as text only: 123 or true is a 400 (§3.10)", async () => {
    for (const question of [123, true]) {
      const direct = await post(
        "/api/v1/question-sets",
        JSON.stringify({ name: "s", questions: [{ question_text: question }] }),
      );
      expect(direct.status).toBe(400);
      expect(direct.body.issues).toEqual([
        expect.objectContaining({ path: "questions.0.question_text" }),
      ]);
      const imported = await post(
        "/api/v1/question-sets/import",
        JSON.stringify({
          name: "s",
          format: "json",
          content: JSON.stringify([{ question: "ok?" }, { question }]),
        }),
      );
      expect(imported.status).toBe(400);
      expect(imported.body.rows).toEqual([
        {
          row: 2,
          field: "question_text",
          message: `expected text, got a ${typeof question} (${String(question)})`,
        },
      ]);
    }
  });
});
