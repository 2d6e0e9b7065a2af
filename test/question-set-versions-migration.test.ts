import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { expect, inject, it } from "vitest";
import { MIGRATIONS_FOLDER } from "../src/store/index.js";
import { createDatabase } from "./support/postgres-server.js";

// Issue 28 §3: the migration that brings versions gives every set that exists a version 1 holding
// its live questions in their order, made by the set's creator.

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

/** The migrations folder as it was before `tag`: the journal cut there, the files up to it. */
function foldersBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-migrations-"));
  mkdirSync(join(dir, "meta"));
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
  ) as Journal;
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(cut).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, cut);
  for (const entry of entries) {
    copyFileSync(join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), join(dir, `${entry.tag}.sql`));
  }
  writeFileSync(join(dir, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  return dir;
}

/** A database of either kind: raw queries, and migrations from a folder. */
interface Database {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function openDatabase(kind: "pglite" | "postgres"): Promise<Database> {
  if (kind === "pglite") {
    const client = new PGlite();
    const db = drizzlePglite(client);
    return {
      query: (text, params) => client.query(text, params),
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const url = await createDatabase(inject("postgresUrl"), "qsv", { empty: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const db = drizzle(client);
  return {
    query: async <T>(text: string, params?: unknown[]) =>
      (await client.query(text, params)) as unknown as { rows: T[] },
    migrate: (folder) => migrate(db, { migrationsFolder: folder }),
    close: () => client.end(),
  };
}

it.each(["pglite", "postgres"] as const)(
  "gives every existing question set a version 1 of its live questions, by its creator [%s]",
  async (kind) => {
    const client = await openDatabase(kind);
    const before = foldersBefore("0024_question_set_versions");
    try {
      await client.migrate(before);
      const alice = "00000000-0000-4000-8000-00000000000a";
      const bob = "00000000-0000-4000-8000-00000000000b";
      for (const [id, name] of [
        [alice, "alice"],
        [bob, "bob"],
      ]) {
        await client.query("insert into users (id, name) values ($1, $2)", [id, name]);
        await client.query("insert into workspaces (id, name, personal) values ($1, $2, true)", [
          id,
          name,
        ]);
      }
      const sets = [
        ["10000000-0000-4000-8000-000000000001", alice, "alice's set"],
        ["10000000-0000-4000-8000-000000000002", bob, "bob's set"],
        ["10000000-0000-4000-8000-000000000003", bob, "empty"],
      ];
      for (const [id, owner, name] of sets) {
        await client.query(
          "insert into question_sets (id, user_id, workspace_id, name) values ($1, $2, $2, $3)",
          [id, owner, name],
        );
      }
      const question = (
        set: string,
        owner: string,
        position: number,
        text: string,
        deleted = false,
      ) =>
        client.query(
          `insert into questions (workspace_id, question_set_id, position, question_type, question_text,
           ground_truth, ground_truths, question_key, gmt_deleted)
         values ($1, $2, $3, 'FACTUAL', $4, 'ref', $5, lower($4), $6)`,
          [
            owner,
            set,
            position,
            text,
            position === 0 ? '["ref", "other"]' : null,
            deleted ? new Date() : null,
          ],
        );
      // Stored out of order: the version keeps the set's order by position.
      await question(sets[0]![0]!, alice, 1, "Second?");
      await question(sets[0]![0]!, alice, 0, "First?");
      await question(sets[0]![0]!, alice, 2, "Gone?", true);
      await question(sets[1]![0]!, bob, 0, "Bob's?");

      await client.migrate(MIGRATIONS_FOLDER);
      const { rows } = await client.query<{
        question_set_id: string;
        number: number;
        created_by: string;
        change: string;
        question_count: number;
        questions: Array<{ question_text: string; ground_truths: string[] | null; id: string }>;
      }>(
        "select question_set_id, number, created_by, change, question_count, questions from question_set_versions order by question_set_id",
      );
      expect(
        rows.map((r) => [
          r.question_set_id,
          r.number,
          r.created_by,
          r.change,
          r.question_count,
          r.questions.map((q) => q.question_text),
        ]),
      ).toEqual([
        [sets[0]![0], 1, alice, "created", 2, ["First?", "Second?"]],
        [sets[1]![0], 1, bob, "created", 1, ["Bob's?"]],
        [sets[2]![0], 1, bob, "created", 0, []],
      ]);
      expect(rows[0]?.questions[0]?.ground_truths).toEqual(["ref", "other"]);
    } finally {
      await client.close();
      rmSync(before, { recursive: true, force: true });
    }
  },
);
