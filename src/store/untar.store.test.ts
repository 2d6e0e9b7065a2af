import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { pgliteTemplate } from "../../test/support/stores.js";
import { extractTarGz } from "./untar.js";

const dir = mkdtempSync(join(tmpdir(), "ragjudge-untar-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let folders = 0;
const newFolder = () => mkdtempSync(join(dir, `x${folders++}-`));

/** One ustar header (and the body, padded), as tar writes them. */
function entry(name: string, options: { type?: string; body?: string; prefix?: string } = {}) {
  const body = Buffer.from(options.body ?? "");
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write("0000644\0", 100);
  header.write(`${body.length.toString(8).padStart(11, "0")}\0`, 124);
  header.write(options.type ?? "0", 156);
  header.write("ustar\0" + "00", 257);
  header.write(options.prefix ?? "", 345);
  header.write("        ", 148);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  body.copy(padded);
  return Buffer.concat([header, padded]);
}
const archive = (...entries: Buffer[]) => gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));

it("writes an archive's directories and files, leading slashes and ustar prefixes included", () => {
  const into = newFolder();
  extractTarGz(
    archive(
      entry("/base", { type: "5" }),
      entry("/base/1/PG_VERSION", { body: "17\n" }),
      entry("empty_file"),
      entry("global/pg_control", { prefix: "deep/er", body: "x".repeat(1500) }),
    ),
    into,
  );
  expect(readFileSync(join(into, "base", "1", "PG_VERSION"), "utf8")).toBe("17\n");
  expect(readFileSync(join(into, "empty_file"), "utf8")).toBe("");
  expect(readFileSync(join(into, "deep", "er", "global", "pg_control"), "utf8")).toBe(
    "x".repeat(1500),
  );
  expect(statSync(join(into, "base", "1", "PG_VERSION")).mode & 0o777).toBe(0o644);
});

it("refuses names outside the folder, links, damaged headers and cut bodies, naming the entry", () => {
  const cases: [Buffer, string][] = [
    [archive(entry("../escape", { body: "x" })), 'tar entry "../escape" is outside'],
    [archive(entry("/", { type: "5" })), 'tar entry "/" is outside'],
    [archive(entry("link", { type: "2" })), 'tar entry "link" has type "2"'],
  ];
  const damaged = Buffer.concat([entry("a", { body: "x" }), Buffer.alloc(1024)]);
  damaged[0] = "b".charCodeAt(0);
  cases.push([gzipSync(damaged), "tar header at byte 0 is damaged"]);
  const cut = entry("big", { body: "y".repeat(2000) }).subarray(0, 1024);
  cases.push([gzipSync(cut), 'tar entry "big" is truncated']);
  for (const [bytes, message] of cases) {
    const into = newFolder();
    expect(() => extractTarGz(bytes, into)).toThrow(message);
  }
  expect(() => extractTarGz(Buffer.from("not gzip"), newFolder())).toThrow();
  expect(existsSync(join(dir, "escape"))).toBe(false);
});

it("unpacks a PGlite dump into a data directory PGlite opens with its data", async () => {
  const source = await PGlite.create({
    loadDataDir: pgliteTemplate(),
  });
  await source.exec("create table unpacked (v text); insert into unpacked values ('kept')");
  const dump = Buffer.from(await (await source.dumpDataDir("gzip")).arrayBuffer());
  await source.close();
  const dataDir = newFolder();
  extractTarGz(dump, dataDir);
  expect(readdirSync(dataDir)).toContain("PG_VERSION");
  const opened = await PGlite.create({ dataDir });
  try {
    expect((await opened.query("select v from unpacked")).rows).toEqual([{ v: "kept" }]);
  } finally {
    await opened.close();
  }
}, 120_000);
