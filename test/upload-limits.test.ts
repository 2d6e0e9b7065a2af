// Issue 22 items 1 and 2: one upload froze `ragjudge serve` (a 100 kB Markdown line of `[`: 17 s,
// quadratic; 200,000 nested <div>: 31 s) or took its memory (a 1 MB PDF inflating to 1 GiB: from
// 380 MB to 2.3 GB). Here `serve` runs as users start it, and each hostile upload is sent while
// /api/v1/health is asked again and again: the upload must be answered within a stated time, and
// health must keep answering meanwhile.
//
// On health's latency: the bound is the issue's 100 ms, but this runs on shared 2-core machines,
// where an idle server's /health measured a 95th percentile of 56 ms and a maximum of 156 ms at a
// load average of 20. So 90% of the answers must come in under 100 ms and none may take 500 ms,
// or, on a machine where /health is slow even when idle, under bounds measured just before the
// upload (expectHealthKeptAnswering); before the fix one answer waited for the whole parse
// (seconds to minutes).

import { readFileSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawnCli, type SpawnedCli } from "./support/cli.js";
import { pdfBomb } from "./support/pdf-bomb.js";
import { redeemLoginLink } from "./support/login-link.js";

const MIB = 1024 * 1024;
/** Every upload here is answered within this (the parse thread's own limit per file is 30 s). */
// Generous: the suite shares two cores with Chromium and PostgreSQL, and a shared machine may be
// loaded many times over (a 9 MB CSV once took over 20 s at a load of 20); the old code took
// minutes on the pathological files, and /health's bound catches it on the CSV.
const UPLOAD_MS = 60_000;

const home = mkdtempSync(join(tmpdir(), "ragjudge-upload-limits-"));
let serve: SpawnedCli;
let origin = "";
let headers: Record<string, string> = {};
let collectionId = "";

beforeAll(async () => {
  serve = spawnCli(["serve", "--port", "0", "--no-worker"], { env: { RAGJUDGE_HOME: home } });
  const login = await new Promise<string>((resolve, reject) => {
    serve.child.stdout?.on("data", () => {
      const url = /(http:\/\/127\.0\.0\.1:\d+\/login\?code=\S+)/.exec(serve.out())?.[1];
      if (url) resolve(url);
    });
    void serve.exited.then((code) => reject(new Error(`serve exited ${code}: ${serve.err()}`)));
  });
  origin = new URL(login).origin;
  const cookie = await redeemLoginLink(login);
  headers = { cookie, origin, "content-type": "application/json" };
  const created = await fetch(`${origin}/api/v1/collections`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "hostile uploads" }),
  });
  expect(created.status).toBe(201);
  collectionId = ((await created.json()) as { id: string }).id;
}, 120_000);

afterAll(async () => {
  // A server still stuck in a parse (the old code) cannot run its SIGTERM handler.
  serve?.child.kill("SIGKILL");
  await serve?.exited;
  rmSync(home, { recursive: true, force: true });
});

/** serve's resident memory now and at its peak, in bytes (Linux's /proc). */
function memory(): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${serve.child.pid}/status`, "utf8");
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rss: kb("VmRSS") * 1024, peak: kb("VmHWM") * 1024 };
}

interface Watched {
  status: number;
  body: {
    issues?: Array<{ path: string; message: string }>;
    documents?: { added: number };
    rows?: Array<{ row: number; field: string; message: string }>;
  };
  healthMs: number[];
  /** /health's latency just before the upload: what this machine gives now, with nothing to read. */
  baselineMs: number[];
  /** Growth of serve's peak resident memory over its memory before the upload. */
  memoryGrowth: number;
}

/** Sends one upload and asks for /health every 10 ms until it is answered. */
function uploadWatched(documents: unknown[]): Promise<Watched> {
  return postWatched(`/api/v1/collections/${collectionId}/documents`, { documents });
}

/** /health's latency, asked `times` times in a row with nothing else sent. */
async function healthLatencies(times: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await (await fetch(`${origin}/api/v1/health`)).arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return latencies;
}

async function postWatched(path: string, payload: unknown): Promise<Watched> {
  const body = JSON.stringify(payload);
  const baselineMs = await healthLatencies(15);
  // Resets the peak to the current memory (Linux 4.0+), so the peak read after is this upload's.
  writeFileSync(`/proc/${serve.child.pid}/clear_refs`, "5");
  const before = memory();
  let answered = false;
  const healthMs: number[] = [];
  const health = (async () => {
    while (!answered) {
      const started = performance.now();
      const response = await fetch(`${origin}/api/v1/health`, {
        signal: AbortSignal.timeout(UPLOAD_MS),
      });
      await response.arrayBuffer();
      if (!answered) healthMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(UPLOAD_MS),
    });
    return {
      status: response.status,
      body: (await response.json()) as Watched["body"],
      healthMs,
      baselineMs,
      memoryGrowth: memory().peak - before.rss,
    };
  } finally {
    answered = true;
    await health.catch(() => undefined);
  }
}

/**
 * The issue's bound is 100 ms. On a machine loaded beyond its cores an idle /health is itself slow
 * at times, so the bounds grow with what /health gave just before the upload: 90% of the answers
 * under max(100 ms, twice the idle 90th percentile) (one answer may be slower when there are fewer
 * than 20), none over max(500 ms, 4 times the idle
 * maximum). The code this replaced held /health for the whole parse: seconds to minutes.
 */
function expectHealthKeptAnswering({ healthMs, baselineMs }: Watched) {
  expect(healthMs.length).toBeGreaterThanOrEqual(3);
  const idle = [...baselineMs].sort((a, b) => a - b);
  const idleP90 = idle[Math.floor(idle.length * 0.9)] ?? 0;
  const fastMs = Math.max(100, 2 * idleP90);
  const slowMs = Math.max(500, 4 * (idle.at(-1) ?? 0));
  const seen = `health answered in ${healthMs.map(Math.round).join(", ")} ms (idle: ${idle.map(Math.round).join(", ")} ms)`;
  // 10% of the answers may be slower, and at least one: a parse that ends in 150 ms gives only a
  // handful of answers, where one scheduler hiccup on a shared machine is already 15%.
  const slow = healthMs.filter((ms) => ms >= fastMs).length;
  expect(slow, seen).toBeLessThanOrEqual(Math.max(1, Math.floor(healthMs.length * 0.1)));
  expect(Math.max(...healthMs), seen).toBeLessThan(slowMs);
}

it("reads a 1 MB Markdown line of unclosed brackets while /health keeps answering", async () => {
  const line = "[".repeat(1_000_000);
  const watched = await uploadWatched([{ name: "brackets.md", content: line }]);
  expect(watched.status, JSON.stringify(watched.body).slice(0, 300)).toBe(201);
  expect(watched.body.documents?.added).toBe(1);
  expectHealthKeptAnswering(watched);
}, 120_000);

it("reads 200,000 nested <div> while /health keeps answering", async () => {
  const html = `${"<div>".repeat(200_000)}deep${"</div>".repeat(200_000)}`;
  const watched = await uploadWatched([{ name: "nested.html", content: html }]);
  expect(watched.status, JSON.stringify(watched.body).slice(0, 300)).toBe(201);
  expectHealthKeptAnswering(watched);
}, 120_000);

it("refuses a PDF that inflates to 1 GiB by its name, within 256 MiB of serve's memory", async () => {
  const bomb = await pdfBomb(1024 * MIB);
  const watched = await uploadWatched([
    { name: "minutes.md", content: "# Minutes\n\nThe quay reopens in May." },
    { name: "bomb.pdf", content_base64: bomb.toString("base64") },
  ]);
  expect(watched.status).toBe(400);
  expect(watched.body.issues).toEqual([
    {
      path: "documents.1",
      message:
        "bomb.pdf: its compressed streams decode to more than 64 MiB (the limit per document)",
    },
  ]);
  // Before: +1 GiB and more. Now: the parse thread and what it decodes, about 50 MB.
  expect(watched.memoryGrowth).toBeLessThan(256 * MIB);
  expectHealthKeptAnswering(watched);
}, 120_000);

it("refuses the PDF that takes a request's PDFs past 256 MiB decoded, by its name", async () => {
  // Five files of 60 MiB each: every one under the limit per document, not all together.
  const pdf = (await pdfBomb(60 * MIB)).toString("base64");
  const watched = await uploadWatched(
    Array.from({ length: 5 }, (_, i) => ({ name: `part-${i + 1}.pdf`, content_base64: pdf })),
  );
  expect(watched.status).toBe(400);
  expect(watched.body.issues).toEqual([
    {
      path: "documents.4",
      message:
        "part-5.pdf: its compressed streams decode to more than 16 MiB (what was left of 256 MiB for the PDFs of one request)",
    },
  ]);
}, 120_000);

it("reads a 9 MB question file on the parse thread while /health keeps answering", async () => {
  // Before, csv-parse and the row checks ran on the request's thread: 1.2 s for this file.
  const rows = Array.from({ length: 5_000 }, (_, i) => `"Q${i} ${"word ".repeat(360)}?",x`);
  const watched = await postWatched("/api/v1/question-sets/import", {
    name: "a large file",
    format: "csv",
    content: `question,answer\n${rows.join("\n")}\n`,
  });
  expect(watched.status, JSON.stringify(watched.body).slice(0, 300)).toBe(201);
  expectHealthKeptAnswering(watched);
}, 120_000);
