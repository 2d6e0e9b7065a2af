// The observational_data.jsonl file (seed 000's observational_data.json, as JSON Lines): each
// batch appended with one O_APPEND write of whole lines, the file private to its owner (0600),
// rotated before it would pass its size limit, and by default one file per user (issue 22 §13:
// one world-readable file held every user's questions and answers and grew without bound).

import { mkdir, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

export interface ObservationFileLimits {
  /** A file that would grow past this many bytes is rotated first (one longer line still lands). */
  maxBytes: number;
  /** Rotated files kept: `<file>.1` (the newest) to `<file>.<maxFiles>`; 0 keeps none. */
  maxFiles: number;
}

export const OBSERVATION_FILE_DEFAULTS: ObservationFileLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxFiles: 3,
};

/** The file of one user's observations: `observational_data.jsonl` -> `observational_data.<id>.jsonl`. */
export function perUserObservationPath(path: string, workspaceId: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  const own =
    dot > 0 ? `${name.slice(0, dot)}.${workspaceId}${name.slice(dot)}` : `${name}.${workspaceId}`;
  return join(dirname(path), own);
}

const OWNER_ONLY = 0o600;

async function openForAppend(path: string) {
  // "a" is O_WRONLY | O_CREAT | O_APPEND: each write lands whole at the end of the file, even with
  // other processes appending, on local file systems.
  try {
    return await open(path, "a", OWNER_ONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    return await open(path, "a", OWNER_ONLY);
  }
}

/** `<path>` becomes `<path>.1`, `.1` becomes `.2` ..., the oldest beyond maxFiles is removed. */
async function rotate(path: string, maxFiles: number): Promise<void> {
  if (maxFiles === 0) return rm(path, { force: true });
  await rm(`${path}.${maxFiles}`, { force: true });
  for (let n = maxFiles - 1; n >= 1; n--) {
    await rename(`${path}.${n}`, `${path}.${n + 1}`).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  }
  await rename(path, `${path}.1`);
}

async function appendOnce(path: string, data: Buffer, limits: ObservationFileLimits) {
  let handle = await openForAppend(path);
  try {
    const { size, mode } = await handle.stat();
    if (size > 0 && size + data.length > limits.maxBytes) {
      await handle.close();
      await rotate(path, limits.maxFiles);
      handle = await openForAppend(path);
    } else if ((mode & 0o077) !== 0) {
      // A file an older version made readable by others (0644) becomes private too.
      await handle.chmod(OWNER_ONLY);
    }
    const { bytesWritten } = await handle.write(data, 0, data.length);
    if (bytesWritten !== data.length) {
      throw new Error(`${path}: short write (${bytesWritten} of ${data.length} bytes)`);
    }
  } finally {
    await handle.close();
  }
}

const queues = new Map<string, Promise<void>>();

/**
 * Appends each value as one JSON line, all in a single write. Writes to one path are serialized
 * within the process, so lines never interleave, keep their order, and rotate once. (Processes
 * sharing one file each rotate it by its size as they see it.)
 */
export function appendJsonLines(
  path: string,
  values: readonly unknown[],
  limits: ObservationFileLimits = OBSERVATION_FILE_DEFAULTS,
): Promise<void> {
  const full = resolve(path);
  const data = Buffer.from(values.map((v) => `${JSON.stringify(v)}\n`).join(""), "utf8");
  const previous = queues.get(full) ?? Promise.resolve();
  const next = previous.then(() => appendOnce(full, data, limits));
  const settled = next.catch(() => undefined);
  queues.set(full, settled);
  void settled.then(() => {
    if (queues.get(full) === settled) queues.delete(full);
  });
  return next;
}
