import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import {
  acquireDirLock,
  formatLockHolder,
  parseLockHolder,
  type ProcessFacts,
  procFacts,
  StoreLockedError,
  startTimeFromStat,
} from "./lock.js";
import { tempDir } from "../../test/support/temp-dir.js";

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
  const dir = tempDir("lock");
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
  const dir = tempDir("lock");
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  writeFileSync(join(dir, "lock"), `${dead.stdout}\n`);
  const release = acquireDirLock(dir);
  expect(parseLockHolder(readFileSync(join(dir, "lock"), "utf8"))?.pid).toBe(process.pid);
  release();
  expect(existsSync(join(dir, "lock"))).toBe(false);
});

/** Starts `n` processes that each try the lock at the same instant; resolves to what each said. */
async function raceForLock(dir: string, n: number): Promise<string[]> {
  const at = Date.now() + 4_000;
  const script = `
    import { acquireDirLock } from ${JSON.stringify(new URL("./lock.ts", import.meta.url).href)};
    while (Date.now() < ${at}) {}
    try { acquireDirLock(${JSON.stringify(dir)}); process.stdout.write("took\\n"); }
    catch (error) { process.stdout.write(error.name === "StoreLockedError" ? "refused\\n" : String(error) + "\\n"); }
    setInterval(() => {}, 1000);`;
  return Promise.all(
    Array.from({ length: n }, async () => {
      const child = spawn(process.execPath, [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        script,
      ]);
      children.push(child);
      let out = "";
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("\n")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`racer exited with ${code}`)));
      });
      return out.trim();
    }),
  );
}

it("eight processes starting at once on a new home, and on a dead holder's lock: exactly one takes it", async () => {
  const fresh = tempDir("lock");
  const outcomes = await raceForLock(fresh, 8);
  expect(outcomes.filter((o) => o === "took")).toHaveLength(1);
  expect(outcomes.filter((o) => o === "refused")).toHaveLength(7);
  for (const child of children.splice(0)) child.kill("SIGKILL");

  const stale = tempDir("lock");
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  writeFileSync(join(stale, "lock"), `${dead.stdout}\n`);
  const again = await raceForLock(stale, 8);
  expect(again.filter((o) => o === "took")).toHaveLength(1);
  expect(again.filter((o) => o === "refused")).toHaveLength(7);
}, 60_000);

const ownBoot = procFacts.bootId();
const hasProc = procFacts.startTimeOf(process.pid) !== undefined;

it("takes over a lock naming this process's pid from an earlier start (a restarted container's pid 1)", () => {
  const dir = tempDir("lock");
  // Same pid, same boot, another start time: the process that wrote it is gone.
  writeFileSync(
    join(dir, "lock"),
    formatLockHolder({ pid: process.pid, startTime: "1", ...(ownBoot ? { bootId: ownBoot } : {}) }),
  );
  const release = acquireDirLock(dir);
  expect(parseLockHolder(readFileSync(join(dir, "lock"), "utf8"))).toEqual({
    pid: process.pid,
    ...(hasProc ? { startTime: procFacts.startTimeOf(process.pid) } : {}),
    ...(ownBoot ? { bootId: ownBoot } : {}),
  });
  // While this process holds it, it is live: a second open in the same process is refused.
  expect(() => acquireDirLock(dir)).toThrow(StoreLockedError);
  release();
  expect(existsSync(join(dir, "lock"))).toBe(false);
});

it("takes over a lock naming this process's pid written before the start time was recorded", () => {
  const dir = tempDir("lock");
  writeFileSync(join(dir, "lock"), `${process.pid}\n`);
  const release = acquireDirLock(dir);
  release();
  expect(existsSync(join(dir, "lock"))).toBe(false);
});

it.skipIf(!hasProc)(
  "takes over a live pid whose start time or boot differs from the lock's",
  async () => {
    const dir = tempDir("lock");
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
    children.push(child);
    const pid = child.pid ?? 0;
    const start = procFacts.startTimeOf(pid);
    expect(start).toBeDefined();
    for (const stale of [
      { pid, startTime: String(Number(start) + 1), ...(ownBoot ? { bootId: ownBoot } : {}) },
      { pid, ...(start ? { startTime: start } : {}), bootId: "another-boot" },
    ]) {
      writeFileSync(join(dir, "lock"), formatLockHolder(stale));
      acquireDirLock(dir)();
    }
    // The same pid with its real start time and boot is a live holder.
    writeFileSync(
      join(dir, "lock"),
      formatLockHolder({
        pid,
        ...(start ? { startTime: start } : {}),
        ...(ownBoot ? { bootId: ownBoot } : {}),
      }),
    );
    expect(() => acquireDirLock(dir)).toThrow(new RegExp(`process ${pid}`));
  },
);

it("without /proc, trusts a live pid and still takes over its own pid", () => {
  const noProc: ProcessFacts = {
    startTimeOf: () => undefined,
    bootId: () => undefined,
    isAlive: procFacts.isAlive,
  };
  const dir = tempDir("lock");
  writeFileSync(join(dir, "lock"), formatLockHolder({ pid: process.ppid, startTime: "1" }));
  expect(() => acquireDirLock(dir, noProc)).toThrow(StoreLockedError);
  writeFileSync(join(dir, "lock"), formatLockHolder({ pid: process.pid, startTime: "1" }));
  const release = acquireDirLock(dir, noProc);
  expect(readFileSync(join(dir, "lock"), "utf8")).toBe(`${process.pid}\n`);
  release();
});

it("reads the start time after a command name holding spaces and parentheses", () => {
  const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
  expect(startTimeFromStat(`42 (a) b (c) ${fields.join(" ")}`)).toBe("22");
  expect(startTimeFromStat("42 (short) S 1")).toBeUndefined();
});
