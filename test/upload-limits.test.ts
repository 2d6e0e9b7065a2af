// Issue 22 items 1 and 2: one upload froze `ragjudge serve` (a 100 kB Markdown line of `[`: 17 s,
// quadratic; 200,000 nested <div>: 31 s) or took its memory (a 1 MB PDF inflating to 1 GiB: from
// 380 MB to 2.3 GB). Here `serve` runs as users start it, and each hostile upload must be read on
// the parse thread, not on the thread that answers requests.
//
// That is proved by CPU time per thread (Linux's /proc), not by /health's latency, which a loaded
// 2-core machine makes slow whatever the code: during the upload, a thread started after serve
// (a parse thread) must have done the reading. How fast /health answers meanwhile is measured by
// `npm run bench -- uploads`.

import { readdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawnCli, type SpawnedCli } from "./support/cli.js";
import { pdfBomb } from "./support/pdf-bomb.js";
import { redeemLoginLink } from "./support/login-link.js";

const MIB = 1024 * 1024;
/** A deadline, not a speed claim: a server stuck in a parse fails the test instead of hanging it. */
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
  threadsAtStart = new Set(threadTicks().keys());
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

/** CPU time (utime + stime, fields 14 and 15 of Linux's /proc stat) of each of serve's threads, in clock ticks. */
function threadTicks(): Map<number, number> {
  const pid = serve.child.pid as number;
  const ticks = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ticks;
}

/**
 * serve's threads once it is up, before any upload: its main thread (whose id is the process's),
 * V8's and libuv's pools and the embedded store's thread. Parse threads are started later, on the
 * first upload (and again after one idles 30 s or passes a limit).
 */
let threadsAtStart = new Set<number>();

interface Watched {
  status: number;
  body: {
    issues?: Array<{ path: string; message: string }>;
    documents?: { added: number };
    rows?: Array<{ row: number; field: string; message: string }>;
  };
  /** How many times /health answered while the upload was read. */
  healthAnswers: number;
  /**
   * CPU ticks spent during the upload by serve's main thread and by the threads started since
   * serve was up (the parse threads; one that ended meanwhile is not counted, and none of these
   * uploads ends one).
   */
  cpu: { main: number; parse: number };
  /** Growth of serve's peak resident memory over its memory before the upload. */
  memoryGrowth: number;
}

/** Sends one upload and asks for /health meanwhile until it is answered. */
function uploadWatched(documents: unknown[]): Promise<Watched> {
  return postWatched(`/api/v1/collections/${collectionId}/documents`, { documents });
}

async function postWatched(path: string, payload: unknown): Promise<Watched> {
  const body = JSON.stringify(payload);
  // Resets the peak to the current memory (Linux 4.0+), so the peak read after is this upload's.
  writeFileSync(`/proc/${serve.child.pid}/clear_refs`, "5");
  const before = memory();
  const ticksBefore = threadTicks();
  let answered = false;
  let healthAnswers = 0;
  const health = (async () => {
    while (!answered) {
      const response = await fetch(`${origin}/api/v1/health`, {
        signal: AbortSignal.timeout(UPLOAD_MS),
      });
      await response.arrayBuffer();
      if (!answered) healthAnswers++;
      // Now and then only: each answer is the main thread's CPU, which is measured here.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(UPLOAD_MS),
    });
    const answer = (await response.json()) as Watched["body"];
    const spent = [...threadTicks()].map(([tid, ticks]) => ({
      tid,
      ticks: ticks - (ticksBefore.get(tid) ?? 0),
    }));
    const sum = (list: typeof spent) => list.reduce((total, { ticks }) => total + ticks, 0);
    return {
      status: response.status,
      body: answer,
      healthAnswers,
      cpu: {
        main: sum(spent.filter(({ tid }) => tid === serve.child.pid)),
        parse: sum(spent.filter(({ tid }) => !threadsAtStart.has(tid))),
      },
      memoryGrowth: memory().peak - before.rss,
    };
  } finally {
    answered = true;
    await health.catch(() => undefined);
  }
}

/**
 * The file was read on a parse thread: one started since serve was up spent CPU on it, and the
 * main thread at most three times as much (it still reads the request's JSON, writes the result
 * and answers /health). Measured (ticks of 10 ms, main/parse): Markdown 4/9, <div> 3/6, PDF 1/6,
 * CSV 43/37. With the reading called inline on the main thread (the code before the parse
 * thread), no thread is started: parse 0 in all four, while the main thread spent 6, 8, 7, 68. (The main thread's share of all of serve's CPU
 * did not tell the two apart: the embedded store's thread and V8's helpers take most of it.)
 */
function expectReadOnParseThread({ cpu, healthAnswers }: Watched) {
  const seen = `CPU ticks during the upload: main thread ${cpu.main}, parse threads ${cpu.parse}`;
  expect(cpu.parse, seen).toBeGreaterThan(0);
  expect(cpu.main, seen).toBeLessThanOrEqual(3 * cpu.parse);
  // And /health was answered meanwhile, at least once.
  expect(healthAnswers).toBeGreaterThanOrEqual(1);
}

it("reads a 1 MB Markdown line of unclosed brackets on the parse thread", async () => {
  const line = "[".repeat(1_000_000);
  const watched = await uploadWatched([{ name: "brackets.md", content: line }]);
  expect(watched.status, JSON.stringify(watched.body).slice(0, 300)).toBe(201);
  expect(watched.body.documents?.added).toBe(1);
  expectReadOnParseThread(watched);
}, 120_000);

it("reads 200,000 nested <div> on the parse thread", async () => {
  const html = `${"<div>".repeat(200_000)}deep${"</div>".repeat(200_000)}`;
  const watched = await uploadWatched([{ name: "nested.html", content: html }]);
  expect(watched.status, JSON.stringify(watched.body).slice(0, 300)).toBe(201);
  expectReadOnParseThread(watched);
}, 120_000);

it("refuses a PDF that inflates to 1 GiB by its name, within 256 MiB of serve's memory, on the parse thread", async () => {
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
  expectReadOnParseThread(watched);
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

it("reads a 9 MB question file on the parse thread", async () => {
  // Before, csv-parse and the row checks ran on the request's thread: 1.2 s for this file.
  const rows = Array.from({ length: 5_000 }, (_, i) => `"Q${i} ${"word ".repeat(360)}?",x`);
  const watched = await postWatched("/api/v1/question-sets/import", {
    name: "a large file",
    format: "csv",
    content: `question,answer\n${rows.join("\n")}\n`,
  });
  expect(watched.status, JSON.stringify(watched.body).slice(0, 300)).toBe(201);
  expectReadOnParseThread(watched);
}, 120_000);
