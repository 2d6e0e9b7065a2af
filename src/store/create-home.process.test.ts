import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createDataDir, isNewDataDir } from "./create-home.js";

const dir = mkdtempSync(join(tmpdir(), "ragjudge-create-home-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a data directory is new when missing or empty", () => {
  expect(isNewDataDir(join(dir, "missing"))).toBe(true);
  mkdirSync(join(dir, "empty"));
  expect(isNewDataDir(join(dir, "empty"))).toBe(true);
  mkdirSync(join(dir, "used"));
  writeFileSync(join(dir, "used", "PG_VERSION"), "17");
  expect(isNewDataDir(join(dir, "used"))).toBe(false);
});

it("a broken template says where and why, and leaves no half database", async () => {
  const broken = join(dir, "broken.tar.gz");
  writeFileSync(broken, "not a tar file");
  const dataDir = join(dir, "home", "pgdata");
  mkdirSync(join(dir, "home"));
  await expect(createDataDir({ dataDir, template: broken, startParams: [] })).rejects.toThrow(
    `creating the embedded database in ${dataDir} from ${broken} failed`,
  );
  expect(readdirSync(join(dir, "home"))).toEqual([]);
  expect(existsSync(dataDir)).toBe(false);
});

it("an initdb that fails in the child says where and why, and leaves no half database", async () => {
  // A setting PostgreSQL does not know makes the child's PGlite fail to start.
  const dataDir = join(dir, "initdb-home", "pgdata");
  mkdirSync(join(dir, "initdb-home"));
  await expect(
    createDataDir({ dataDir, startParams: ["-c", "no_such_setting_ragjudge=1"] }),
  ).rejects.toThrow(`creating the embedded database in ${dataDir} failed (exit 1)`);
  expect(readdirSync(join(dir, "initdb-home"))).toEqual([]);
  expect(existsSync(dataDir)).toBe(false);
}, 120_000);
