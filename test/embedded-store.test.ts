import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import {
  ensureLocalUser,
  insertEvaluationRecords,
  listEvaluationRecords,
  openStore,
  queryRows,
  StoreLockedError,
} from "../src/store/index.js";
import { sql } from "drizzle-orm";
import { runCli } from "./support/cli.js";
import { pgliteTemplate } from "./support/stores.js";
import { tempDir } from "./support/temp-dir.js";

it("keeps rows in its data directory across reopen, and locks it while open", async () => {
  const home = tempDir("embedded");
  const store = await openStore({ home });
  const { user } = await ensureLocalUser(store.db, home);
  await insertEvaluationRecords(store.db, [
    {
      workspace_id: user.id,
      conversation_id: "c1",
      message_id: "m1",
      retrieval_record_id: "r1",
      generation_record_id: "g1",
      status: "fail",
      action: "refuse",
      rule_version: "v",
      config: {},
      checks: [],
      scores: {},
      meta: {},
      input: {},
      check_count: 0,
    },
  ]);
  await expect(openStore({ home })).rejects.toBeInstanceOf(StoreLockedError);
  await store.close();

  const reopened = await openStore({ home });
  try {
    const again = await ensureLocalUser(reopened.db, home);
    expect(again.user.id).toBe(user.id);
    const rows = await listEvaluationRecords(reopened.db, user.id);
    expect(rows.map((row) => [row.message_id, row.status])).toEqual([["m1", "fail"]]);
  } finally {
    await reopened.close();
  }
}, 60_000);

it("runs PostgreSQL with a small buffer pool, since it lives in this process's memory", async () => {
  // A setting given at start, whatever the data directory: the test template spares an initdb.
  const store = await openStore({ memory: true, loadDataDir: pgliteTemplate() });
  try {
    const [row] = await queryRows<{ shared_buffers: string }>(store.db, sql`show shared_buffers`);
    expect(row?.shared_buffers).toBe("16MB");
  } finally {
    await store.close();
  }
});

it("moves a home PGlite cannot start on aside, untouched, and says so instead of starting empty", async () => {
  const home = tempDir("damaged");
  const store = await openStore({ home });
  await ensureLocalUser(store.db, home);
  await store.close();
  // A control file a crash mangled: PGlite fails to initialize on it.
  const damaged = Buffer.alloc(8192, 0x5a);
  writeFileSync(join(home, "pgdata/global/pg_control"), damaged);

  const run = await runCli(["serve", "--port", "0", "--no-worker"], {
    env: { RAGJUDGE_HOME: home },
  });
  expect(run.code).toBe(3);
  const movedTo = /moved, untouched, to (\S+pgdata\.damaged-[\dTZ-]+):/.exec(run.stderr)?.[1];
  expect(movedTo, run.stderr).toBeDefined();
  expect(run.stderr).toContain(join(home, "pgdata"));
  expect(run.stderr).toContain("nothing was deleted");
  expect(run.stderr).toContain("DATABASE_URL");
  expect(run.stdout).not.toContain("login?code=");
  // The files are where it said, as they were; nothing was created in their place.
  expect(readFileSync(join(movedTo as string, "global/pg_control")).equals(damaged)).toBe(true);
  expect(existsSync(join(home, "pgdata"))).toBe(false);
}, 120_000);
