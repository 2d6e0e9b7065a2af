import { renameSync } from "node:fs";

// An embedded database PGlite cannot start on (rarely, after the process was killed mid-write):
// its directory is moved aside, never deleted, and the command stops and says where it went and
// what to do, rather than start on an empty database as if nothing had been there.

/** PGlite did not start on a data directory (the error crosses from its thread by this name). */
export class PgliteStartError extends Error {
  override name = "PgliteStartError";
  static isInstance(error: unknown): error is PgliteStartError {
    return error instanceof Error && error.name === "PgliteStartError";
  }
}

/** The embedded database could not be opened; its directory now lives at `movedTo`. */
export class DamagedStoreError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "damaged";
  override name = "DamagedStoreError";
  constructor(
    readonly dataDir: string,
    readonly movedTo: string,
    reason: string,
  ) {
    super(
      `The embedded database in ${dataDir} could not be opened (${reason}); a crash while it ` +
        `was writing can do this. It was moved, untouched, to ${movedTo}: nothing was deleted, ` +
        "and ragjudge did not start on an empty database in its place. Running the command " +
        "again starts a new, empty database; keep the moved folder to recover from, or remove " +
        "it once it is not needed. For data that must survive crashes, run ragjudge on a " +
        "PostgreSQL server: set DATABASE_URL (docs/deploy.md).",
    );
  }
  static isInstance(error: unknown): error is DamagedStoreError {
    return error instanceof Error && error.name === "DamagedStoreError";
  }
}

/** Renames `dataDir` to `<dataDir>.damaged-<UTC time>` and returns the new path. */
export function moveDamagedDataDir(dataDir: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const movedTo = `${dataDir}.damaged-${stamp}`;
  renameSync(dataDir, movedTo);
  return movedTo;
}
