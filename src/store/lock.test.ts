import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { acquireDirLock, StoreLockedError } from "./lock.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Starts another process that takes the lock and holds it until killed. */
async function holdLockInChild(dir: string): Promise<number> {
  const script = `
    import { acquireDirLock } from ${JSON.stringify(new URL("./lock.ts", import.meta.url).href)};
    acquireDirLock(${JSON.stringify(dir)});
    process.stdout.write("locked\\n");
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]);
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve());
    child.once("exit", (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
  return child.pid ?? 0;
}

it("refuses a second process, naming the holder's pid and DATABASE_URL", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-lock-"));
  const pid = await holdLockInChild(dir);
  let error: unknown;
  try {
    acquireDirLock(dir);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(StoreLockedError);
  expect((error as StoreLockedError).holderPid).toBe(pid);
  expect(String((error as Error).message)).toMatch(new RegExp(`process ${pid}.*DATABASE_URL`, "s"));
});

it("takes over a lock left by a dead process, and releases it", () => {
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-lock-"));
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  writeFileSync(join(dir, "lock"), `${dead.stdout}\n`);
  const release = acquireDirLock(dir);
  expect(readFileSync(join(dir, "lock"), "utf8").trim()).toBe(String(process.pid));
  release();
  expect(existsSync(join(dir, "lock"))).toBe(false);
});
