import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { expect, inject, it } from "vitest";
import { MIGRATIONS_FOLDER } from "../src/store/index.js";
import { createDatabase } from "./support/postgres-server.js";
import { tempDir } from "./support/temp-dir.js";

// Issue 28: the migration that brings workspaces gives every existing user a personal workspace
// they own and moves each of their rows into it. Run on a database migrated to just before it,
// holding rows of three users, then migrated to the end.

const BEFORE_WORKSPACES = "0020_alert_rule_judge";

/** A copy of the migrations folder that ends at `lastTag`. */
function migrationsUpTo(lastTag: string): string {
  const dir = tempDir("migrations");
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as {
    entries: { tag: string }[];
  };
  const end = journal.entries.findIndex((entry) => entry.tag === lastTag);
  expect(end).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

const USERS = ["ann", "bo", "cy"] as const;

/** Rows of each user in tables of every area: a collection, a question set, a run, a gate record. */
async function seedRows(query: Query): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const name of USERS) {
    const [user] = (await query(`insert into users (name) values ('${name}') returning id`)).rows;
    const id = String(user?.id);
    ids[name] = id;
    const [collection] = (
      await query(`insert into collections (user_id, name) values ('${id}', 'docs') returning id`)
    ).rows;
    const [set] = (
      await query(
        `insert into question_sets (user_id, name, question_count) values ('${id}', 'set of ${name}', 1) returning id`,
      )
    ).rows;
    await query(
      `insert into questions (user_id, question_set_id, position, question_type, question_text, ground_truth, question_key)
       values ('${id}', '${String(set?.id)}', 0, 'fact', 'q of ${name}', 'a', 'k-${name}')`,
    );
    await query(
      `insert into evaluations (user_id, name, collection_id, question_set_id, bot_id, judge_llm_model_id, config)
       values ('${id}', 'run of ${name}', '${String(collection?.id)}', '${String(set?.id)}', 'builtin', 'offline', '{}')`,
    );
    await query(
      `insert into api_tokens (user_id, token_hash, label) values ('${id}', 'hash-${name}', 't')`,
    );
  }
  return ids;
}

async function checkMoved(query: Query, ids: Record<string, string>) {
  for (const name of USERS) {
    const id = ids[name];
    const { rows: workspaces } = await query(
      `select w.id, w.name, w.personal, m.user_id, m.role from workspaces w
       join workspace_members m on m.workspace_id = w.id where m.user_id = '${id}'`,
    );
    expect(workspaces).toEqual([{ id, name, personal: true, user_id: id, role: "owner" }]);
    for (const table of [
      "collections",
      "question_sets",
      "questions",
      "evaluations",
      "api_tokens",
    ]) {
      const { rows } = await query(
        `select count(*)::int as n from ${table} where workspace_id = '${id}'`,
      );
      expect(rows, `${table} of ${name}`).toEqual([{ n: 1 }]);
    }
    // Who made a question set or a run is still known (seed 003's user_id).
    const { rows: creators } = await query(
      `select user_id from evaluations where workspace_id = '${id}'
       union all select user_id from question_sets where workspace_id = '${id}'`,
    );
    expect(creators).toEqual([{ user_id: id }, { user_id: id }]);
  }
  // The scope column replaced the owner column in tables where the workspace is the owner.
  const { rows: columns } = await query(
    `select column_name from information_schema.columns
     where table_name = 'collections' and column_name in ('user_id', 'workspace_id')`,
  );
  expect(columns).toEqual([{ column_name: "workspace_id" }]);
}

it("embedded store: each user's rows move into their own new workspace", async () => {
  const client = new PGlite();
  try {
    const db = drizzlePglite(client);
    await migratePglite(db, { migrationsFolder: migrationsUpTo(BEFORE_WORKSPACES) });
    const query: Query = (text) => client.query(text);
    const ids = await seedRows(query);
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await checkMoved(query, ids);
  } finally {
    await client.close();
  }
}, 120_000);

it("PostgreSQL server: each user's rows move into their own new workspace", async () => {
  const url = await createDatabase(inject("postgresUrl"), "wsmig", { empty: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set client_min_messages = warning");
    const db = drizzlePg(client);
    await migratePg(db, { migrationsFolder: migrationsUpTo(BEFORE_WORKSPACES) });
    const query: Query = (text) => client.query(text);
    const ids = await seedRows(query);
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await checkMoved(query, ids);
  } finally {
    await client.end();
  }
}, 120_000);
