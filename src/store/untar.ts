import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

function octal(header: Buffer, start: number, length: number, what: string): number {
  const text = field(header, start, length).trim();
  if (!/^[0-7]+$/.test(text)) throw new Error(`tar entry ${what} is not an octal number`);
  return Number.parseInt(text, 8);
}

/**
 * Extracts a gzipped tar of plain files and directories (what PGlite's dumpDataDir writes: ustar,
 * short names, leading "/") into `into`, which must exist. Anything else (links, devices, a name
 * reaching outside `into`) is refused: the template is ours, and an odd entry means it is not.
 */
export function extractTarGz(archive: Buffer, into: string): void {
  const tar = gunzipSync(archive);
  for (let offset = 0; offset + BLOCK <= tar.length;) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break; // end of archive
    // The checksum sums the header's bytes with its own field read as spaces.
    let sum = 8 * 32;
    for (let i = 0; i < BLOCK; i++) if (i < 148 || i >= 156) sum += header[i] ?? 0;
    if (sum !== octal(header, 148, 8, `at byte ${offset} checksum`)) {
      throw new Error(`tar header at byte ${offset} is damaged (checksum)`);
    }
    const prefix = field(header, 345, 155);
    const name = (prefix ? `${prefix}/` : "") + field(header, 0, 100);
    const parts = name.split("/").filter((part) => part !== "" && part !== ".");
    if (parts.length === 0 || parts.includes("..")) {
      throw new Error(`tar entry "${name}" is outside the data directory`);
    }
    const size = octal(header, 124, 12, `"${name}" size`);
    const type = String.fromCharCode(header[156] ?? 0);
    const target = join(into, ...parts);
    const body = offset + BLOCK;
    if (type === "5") {
      mkdirSync(target, { recursive: true });
    } else if (type === "0" || type === "\0") {
      if (body + size > tar.length) throw new Error(`tar entry "${name}" is truncated`);
      mkdirSync(join(into, ...parts.slice(0, -1)), { recursive: true });
      writeFileSync(target, tar.subarray(body, body + size), {
        mode: octal(header, 100, 8, `"${name}" mode`) & 0o777,
      });
    } else {
      throw new Error(`tar entry "${name}" has type "${type}": only files and directories`);
    }
    offset = body + Math.ceil(size / BLOCK) * BLOCK;
  }
}
