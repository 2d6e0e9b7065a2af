import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { pgliteTemplate } from "../../test/support/stores.js";
import { openStore } from "./open.js";
import { queryRows } from "./raw-query.js";
import { templateFor } from "./template.js";

const dir = mkdtempSync(join(tmpdir(), "ragjudge-template-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a template serves only a data directory that is missing or empty, and only when built", () => {
  const template = join(dir, "t.tar.gz");
  expect(templateFor(join(dir, "missing"), template)).toBeUndefined(); // not built
  writeFileSync(template, "x");
  expect(templateFor(join(dir, "missing"), template)).toBe(template);
  const empty = join(dir, "empty");
  mkdirSync(empty);
  expect(templateFor(empty, template)).toBe(template);
  const used = join(dir, "used");
  mkdirSync(used);
  writeFileSync(join(used, "PG_VERSION"), "17");
  expect(templateFor(used, template)).toBeUndefined();
});

it("a new home starts from the template; an existing one keeps its own data", async () => {
  // What is tested is how a home is created and reopened, not the database thread: the stores
  // open on this thread (thread: false) instead of starting PGlite again in a worker.
  // Independent of the template steps below and the slowest part: started first, awaited last.
  const initdb = (async () => {
    // template: null runs initdb as before.
    const store = await openStore({ home: join(dir, "plain"), template: null, thread: false });
    try {
      return await queryRows(
        store.db,
        sql`select to_regclass('template_marker') is null as absent`,
      );
    } finally {
      await store.close();
    }
  })();

  // A migrated database with a marker table, dumped as the build dumps its template (gzip: a new
  // home unpacks it, see create-home.ts).
  const source = await PGlite.create({
    loadDataDir: pgliteTemplate(),
  });
  await source.exec(
    "create table template_marker (id int); insert into template_marker values (7)",
  );
  const template = join(dir, "marked.tar.gz");
  writeFileSync(template, Buffer.from(await (await source.dumpDataDir("gzip")).arrayBuffer()));
  await source.close();

  const home = join(dir, "home");
  let store = await openStore({ home, template, thread: false });
  expect(await queryRows(store.db, sql`select id from template_marker`)).toEqual([{ id: 7 }]);
  await store.db.execute(sql`insert into template_marker values (8)`);
  await store.close();

  // Reopened: its own data, not the template's again.
  store = await openStore({ home, template, thread: false });
  expect(await queryRows(store.db, sql`select id from template_marker order by id`)).toEqual([
    { id: 7 },
    { id: 8 },
  ]);
  await store.close();

  expect(await initdb).toEqual([{ absent: true }]);
  // Two new homes, each created in a child process (create-home.ts): slow on a busy machine.
}, 180_000);
