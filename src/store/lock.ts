import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** Raised when another live process holds the embedded database. */
export class StoreLockedError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "locked";
  override name = "StoreLockedError";
  constructor(
    readonly dir: string,
    readonly holderPid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${holderPid}. ` +
        "PGlite allows one process at a time: stop that process, or set DATABASE_URL " +
        "to a PostgreSQL server that several processes can share.",
    );
  }
}

/**
 * Who holds a lock: the pid, and what tells that process from a later one given the same pid (a
 * restarted container's process is often pid 1 again): its start time in clock ticks since boot
 * (/proc/<pid>/stat field 22) and the boot id. Both are absent where /proc is (macOS, Windows).
 */
export interface LockHolder {
  pid: number;
  startTime?: string;
  bootId?: string;
}

/** Where to read process facts; tests point it at a fake /proc. */
export interface ProcessFacts {
  /** The start time of `pid`, or undefined when it cannot be read (no /proc, no such process). */
  startTimeOf(pid: number): string | undefined;
  bootId(): string | undefined;
  isAlive(pid: number): boolean;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/stat: the command name (field 2) may hold spaces and ')', so split after the last ')'. */
export function startTimeFromStat(stat: string): string | undefined {
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // rest[0] is field 3 (state), so field 22 is rest[19].
  const value = rest[19];
  return value && /^\d+$/.test(value) ? value : undefined;
}

export const procFacts: ProcessFacts = {
  startTimeOf(pid) {
    const stat = readText(`/proc/${pid}/stat`);
    return stat === undefined ? undefined : startTimeFromStat(stat);
  },
  bootId() {
    return readText("/proc/sys/kernel/random/boot_id")?.trim() || undefined;
  },
  isAlive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // EPERM means the process exists but belongs to someone else.
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  },
};

/** The lock file's text: the pid on the first line (what older versions wrote and read), then facts. */
export function formatLockHolder(holder: LockHolder): string {
  let text = `${holder.pid}\n`;
  if (holder.startTime !== undefined) text += `start ${holder.startTime}\n`;
  if (holder.bootId !== undefined) text += `boot ${holder.bootId}\n`;
  return text;
}

export function parseLockHolder(text: string): LockHolder | undefined {
  const [first, ...rest] = text.split("\n");
  const pid = Number.parseInt(first?.trim() ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const holder: LockHolder = { pid };
  for (const line of rest) {
    const [key, value] = line.trim().split(/\s+/, 2);
    if (!value) continue;
    if (key === "start") holder.startTime = value;
    if (key === "boot") holder.bootId = value;
  }
  return holder;
}

/**
 * Whether the recorded holder still runs. Each fact is checked where both sides know it: another
 * boot, or another start time for the pid, means the pid was reused and the lock is stale. Without
 * /proc only the pid is left, so a live pid is trusted.
 */
export function holderIsLive(holder: LockHolder, facts: ProcessFacts): boolean {
  if (!facts.isAlive(holder.pid)) return false;
  const bootId = facts.bootId();
  if (holder.bootId !== undefined && bootId !== undefined && holder.bootId !== bootId) return false;
  const startTime = facts.startTimeOf(holder.pid);
  if (holder.startTime !== undefined && startTime !== undefined) {
    return holder.startTime === startTime;
  }
  return true;
}

/** Locks this process holds, by path: tells "this process has it open" from a stale file naming our pid. */
const heldHere = new Set<string>();

/**
 * Takes an exclusive lock file in `dir` (PGlite does not lock its directory, and two processes
 * opening one silently lose rows). A lock left by a dead process, or by an earlier process that had
 * the same pid, is taken over. Returns the release function; the lock is also released when the
 * process exits.
 *
 * The lock file appears whole: it is written under a name of its own and hard-linked into place,
 * which fails if a lock exists. (Created empty and then written, a second process starting in
 * that instant read an empty file, took it for a crashed writer's, and both opened the database.)
 */
export function acquireDirLock(dir: string, facts: ProcessFacts = procFacts): () => void {
  const path = resolve(join(dir, "lock"));
  const self: LockHolder = { pid: process.pid };
  const startTime = facts.startTimeOf(process.pid);
  const bootId = facts.bootId();
  if (startTime !== undefined) self.startTime = startTime;
  if (bootId !== undefined) self.bootId = bootId;
  const mine = `${path}.${process.pid}-${randomBytes(6).toString("hex")}`;
  writeFileSync(mine, formatLockHolder(self), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, path);
        return holdLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const text = readText(path);
        if (text === undefined) continue; // released in between: try again
        const holder = parseLockHolder(text);
        if (holder !== undefined) {
          // Our own pid is live by definition: it is ours only if this process took it.
          const live =
            holder.pid === process.pid ? heldHere.has(path) : holderIsLive(holder, facts);
          if (live) throw new StoreLockedError(dir, holder.pid);
        }
        removeStaleLock(path, text);
      }
    }
  } finally {
    unlinkSync(mine);
  }
  throw new Error(`Could not take the lock file ${path}`);
}

function holdLock(path: string): () => void {
  heldHere.add(path);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldHere.delete(path);
    process.off("exit", release);
    const text = readText(path);
    if (text !== undefined && parseLockHolder(text)?.pid === process.pid) unlinkSync(path);
  };
  process.on("exit", release);
  return release;
}

/**
 * Removes a stale lock (holder gone, pid reused, or an unreadable file an old version left). It is
 * first renamed away, which only one of several processes can do; if what moved is no longer the
 * stale text (a live process took the lock in between), it is linked back.
 */
function removeStaleLock(path: string, staleText: string): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(6).toString("hex")}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // another process moved it first; the next attempt decides
  }
  try {
    if (readText(aside) !== staleText) linkSync(aside, path);
  } catch {
    // A third process linked a lock in between: it holds the lock.
  } finally {
    unlinkSync(aside);
  }
}
