import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Raised when another live process holds the embedded database. */
export class StoreLockedError extends Error {
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes an exclusive lock file in `dir` (PGlite does not lock its directory, and two processes
 * opening one silently lose rows). A lock left by a dead process is taken over.
 * Returns the release function; the lock is also released when the process exits.
 */
export function acquireDirLock(dir: string): () => void {
  const path = join(dir, "lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        if (readHolder(path) === process.pid) unlinkSync(path);
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readHolder(path);
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
        throw new StoreLockedError(dir, holder);
      }
      if (holder === process.pid) throw new StoreLockedError(dir, holder);
      // Stale (holder died, or the file is half-written): remove it and try again.
      try {
        unlinkSync(path);
      } catch {
        // Another process removed it first; the next attempt decides.
      }
    }
  }
  throw new Error(`Could not take the lock file ${path}`);
}
