import { execFile } from "node:child_process";
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { appendJsonLines, perUserObservationPath } from "./observation-file.js";

const dir = mkdtempSync(join(tmpdir(), "ragjudge-observation-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function readLines(path: string): unknown[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("appendJsonLines", () => {
  it("appends whole lines under concurrency, after what the file already holds", async () => {
    const path = join(dir, "nested", "deeper", "concurrent.jsonl");
    await appendJsonLines(path, [{ i: -1 }]);
    const big = "x".repeat(20_000);
    await Promise.all(Array.from({ length: 300 }, (_, i) => appendJsonLines(path, [{ i, big }])));
    const lines = readLines(path) as { i: number; big?: string }[];
    expect(lines).toHaveLength(301);
    expect(lines[0]).toEqual({ i: -1 });
    // In-process writes to one path are serialized: order is kept.
    expect(lines.slice(1).map((l) => l.i)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    for (const line of lines.slice(1)) expect(line.big).toHaveLength(20_000);
  });

  it("keeps lines whole when two processes append to the same file at once (O_APPEND)", async () => {
    const path = join(dir, "two-processes.jsonl");
    writeFileSync(path, "");
    const module = new URL("./observation-file.ts", import.meta.url).href;
    const script = (tag: string) =>
      `const { appendJsonLines } = await import(${JSON.stringify(module)});` +
      `const big = "${tag}".repeat(70000);` +
      `await Promise.all(Array.from({ length: 40 }, (_, i) => appendJsonLines(${JSON.stringify(path)}, [{ tag: "${tag}", i, big }])));`;
    const run = promisify(execFile);
    await Promise.all(
      ["a", "b"].map((tag) =>
        run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script(tag)], {
          cwd: process.cwd(),
        }),
      ),
    );
    const lines = readLines(path) as { tag: string; i: number; big: string }[];
    expect(lines).toHaveLength(80);
    for (const line of lines) expect(line.big).toBe(line.tag.repeat(70_000));
    expect(lines.filter((l) => l.tag === "a")).toHaveLength(40);
  });

  it("makes the file readable by its owner only, and a file left readable by others private", async () => {
    const path = join(dir, "private", "observational_data.jsonl");
    await appendJsonLines(path, [{ i: 1 }]);
    expect(modeOf(path)).toBe(0o600);
    const old = join(dir, "old.jsonl");
    writeFileSync(old, "");
    chmodSync(old, 0o644);
    await appendJsonLines(old, [{ i: 1 }]);
    expect(modeOf(old)).toBe(0o600);
  });

  it("rotates a file before it would pass its limit, keeping the newest rotated files", async () => {
    const path = join(dir, "rotating.jsonl");
    const line = (i: number) => ({ i, pad: "x".repeat(82) }); // 100 bytes with its newline
    expect(Buffer.byteLength(`${JSON.stringify(line(10))}\n`)).toBe(100);
    const limits = { maxBytes: 250, maxFiles: 2 };
    for (let i = 10; i < 17; i++) await appendJsonLines(path, [line(i)], limits);
    // Two lines fit in 250 bytes: 10-11, 12-13, 14-15 were rotated out in turn, the oldest gone.
    const ids = (file: string) => (readLines(file) as Array<{ i: number }>).map((l) => l.i);
    expect(ids(path)).toEqual([16]);
    expect(ids(`${path}.1`)).toEqual([14, 15]);
    expect(ids(`${path}.2`)).toEqual([12, 13]);
    expect(readdirSync(dir).filter((name) => name.startsWith("rotating.jsonl"))).toHaveLength(3);
    for (const file of [path, `${path}.1`, `${path}.2`]) {
      expect(statSync(file).size).toBeLessThanOrEqual(250);
      expect(modeOf(file)).toBe(0o600);
    }
  });

  it("with no rotated files kept, starts the file over at its limit", async () => {
    const path = join(dir, "no-history.jsonl");
    for (let i = 0; i < 5; i++) {
      await appendJsonLines(path, [{ i, pad: "y".repeat(80) }], { maxBytes: 250, maxFiles: 0 });
    }
    expect((readLines(path) as Array<{ i: number }>).map((l) => l.i)).toEqual([4]);
    expect(readdirSync(dir).filter((name) => name.startsWith("no-history"))).toEqual([
      "no-history.jsonl",
    ]);
  });
});

describe("perUserObservationPath", () => {
  it("puts the user's id before the extension", () => {
    expect(perUserObservationPath("/home/a/.ragjudge/observational_data.jsonl", "u1")).toBe(
      "/home/a/.ragjudge/observational_data.u1.jsonl",
    );
    expect(perUserObservationPath("obs", "u1")).toBe("obs.u1");
  });
});
