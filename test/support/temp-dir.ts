import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Temp directories a test file makes (homes, working directories, fixtures), removed when the
// file ends by temp-dir-cleanup.ts, a setup file of every project: a run used to leave hundreds of
// /tmp/ragjudge-* directories behind. A worker runs its files one after another, so the list is
// the current file's.

const made: string[] = [];

/** A new, empty directory `<tmp>/ragjudge-<name>-XXXXXX`, removed after the file's last test. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ragjudge-${name}-`));
  made.push(dir);
  return dir;
}

/** Removes the directories tempDir made; a child process still writing cannot fail the file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
