// RAGJUDGE_SECRET_KEY as an operator sets it (issue 22 §15): `ragjudge serve` started with the key
// encrypts the bot secrets an embedded home stored as given before, and a malformed key stops it
// at once, naming the variable without repeating it.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, it, vi } from "vitest";
import {
  createBot,
  findOrCreateUser,
  openStore,
  queryRows,
  SecretKey,
} from "../src/store/index.js";
import { runCli, spawnCli } from "./support/cli.js";

const home = mkdtempSync(join(tmpdir(), "ragjudge-secret-key-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const storedSecret = async (): Promise<string | null | undefined> => {
  const store = await openStore({ home });
  try {
    const rows = await queryRows<{ secret: string | null }>(
      store.db,
      sql`select secret from bots where name = 'legacy'`,
    );
    return rows[0]?.secret;
  } finally {
    await store.close();
  }
};

it("serve started with the key encrypts the secrets stored as given before it", async () => {
  const secret = "legacy-plaintext-secret-7a6b5c4d";
  const store = await openStore({ home });
  try {
    // A single-user home, before the operator set a key: the secret is kept as given.
    const user = await findOrCreateUser(store.db, "local");
    const bot = {
      name: "legacy",
      url: "https://rag.example.com/ask",
      secret_header: "authorization",
    };
    await createBot(store.db, user.id, { ...bot, secret }, undefined);
  } finally {
    await store.close();
  }
  expect(await storedSecret()).toBe(secret);

  const key = randomBytes(32).toString("base64");
  const serve = spawnCli(["serve", "--port", "0", "--no-worker"], {
    env: { RAGJUDGE_HOME: home, RAGJUDGE_SECRET_KEY: key },
  });
  try {
    await vi.waitFor(
      () =>
        expect(serve.out()).toContain("Encrypted 1 stored bot secret(s) with RAGJUDGE_SECRET_KEY."),
      { timeout: 60_000, interval: 100 },
    );
  } finally {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  expect(serve.out() + serve.err()).not.toContain(key);

  const sealed = (await storedSecret()) ?? "";
  expect(sealed).toMatch(/^rjsec1\./);
  expect(sealed).not.toContain(secret);
  expect(sealed.split(".")[1]).toBe(SecretKey.fromText(key).id);
}, 120_000);

it("serve refuses a malformed key at start, naming the variable and not repeating it", async () => {
  const run = await runCli(["serve", "--port", "0", "--no-worker"], {
    env: { RAGJUDGE_HOME: home, RAGJUDGE_SECRET_KEY: "not-32-bytes-hunter2" },
  });
  expect(run.code).not.toBe(0);
  expect(run.stderr).toMatch(/RAGJUDGE_SECRET_KEY: expected 32 random bytes/);
  expect(run.stdout + run.stderr).not.toContain("hunter2");
}, 60_000);
