import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { expect, inject, it } from "vitest";
import { z } from "zod";
import { MIGRATIONS_FOLDER, openStore, queryRows } from "../src/store/index.js";
import { createDatabase } from "./support/postgres-server.js";

const Journal = z.object({
  entries: z.array(z.object({ idx: z.number(), when: z.number(), tag: z.string() })),
});

it("has migrations whose timestamps strictly increase, in index order", () => {
  const journal = Journal.parse(
    JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")),
  );
  expect(journal.entries.length).toBeGreaterThan(0);
  journal.entries.forEach((entry, i) => {
    expect(entry.idx).toBe(i);
    if (i > 0) expect(entry.when).toBeGreaterThan(journal.entries[i - 1]?.when ?? 0);
    expect(() => readFileSync(join(MIGRATIONS_FOLDER, `${entry.tag}.sql`))).not.toThrow();
  });
});

it("migrates once when several processes boot against one new server database", async () => {
  const url = await createDatabase(inject("postgresUrl"), "boot", { empty: true });
  const stores = await Promise.all(
    Array.from({ length: 6 }, () => openStore({ databaseUrl: url })),
  );
  try {
    const first = stores[0];
    if (!first) throw new Error("no store");
    const applied = await queryRows<{ count: string }>(
      first.db,
      sql`select count(*)::text as count from drizzle.__drizzle_migrations`,
    );
    const journal = Journal.parse(
      JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")),
    );
    expect(Number(applied[0]?.count)).toBe(journal.entries.length);
  } finally {
    await Promise.all(stores.map((store) => store.close()));
  }
});
