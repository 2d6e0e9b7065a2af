// `npm run bench -- uploads`: how fast `ragjudge serve` answers /api/v1/health while it reads a
// hostile upload (issue 22 items 1 and 2; goal: /health under 100 ms throughout). The same files
// as test/upload-limits.test.ts, which proves by CPU time per thread that they are read on the
// parse thread; the latency is measured here, as a loaded machine makes it slow whatever the code.
// The real `serve` (bin/ragjudge.js) on a fresh embedded home; /health asked every 10 ms, first
// with nothing else sent (idle), then during each upload.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pdfBomb } from "../test/support/pdf-bomb.js";

const CLI = fileURLToPath(new URL("../bin/ragjudge.js", import.meta.url));
const MIB = 1024 * 1024;
/** /health is asked this long with nothing else sent, for the idle row. */
const IDLE_MS = 3_000;

export interface UploadsBenchRow {
  upload: string;
  status: number;
  upload_ms: number;
  health_answers: number;
  health_p50_ms: number;
  health_p90_ms: number;
  health_p99_ms: number;
  health_max_ms: number;
  goal_met: boolean;
}

interface Upload {
  name: string;
  path: (collectionId: string) => string;
  payload: () => Promise<unknown>;
}

const documents = (collectionId: string) => `/api/v1/collections/${collectionId}/documents`;

const UPLOADS: Upload[] = [
  {
    name: "1 MB Markdown line of [",
    path: documents,
    payload: async () => ({ documents: [{ name: "brackets.md", content: "[".repeat(1_000_000) }] }),
  },
  {
    name: "200,000 nested <div>",
    path: documents,
    payload: async () => ({
      documents: [
        {
          name: "nested.html",
          content: `${"<div>".repeat(200_000)}deep${"</div>".repeat(200_000)}`,
        },
      ],
    }),
  },
  {
    name: "PDF inflating to 1 GiB (refused)",
    path: documents,
    payload: async () => ({
      documents: [
        { name: "bomb.pdf", content_base64: (await pdfBomb(1024 * MIB)).toString("base64") },
      ],
    }),
  },
  {
    name: "5 PDFs of 60 MiB decoded (refused)",
    path: documents,
    payload: async () => {
      const pdf = (await pdfBomb(60 * MIB)).toString("base64");
      return {
        documents: Array.from({ length: 5 }, (_, i) => ({
          name: `part-${i + 1}.pdf`,
          content_base64: pdf,
        })),
      };
    },
  },
  {
    name: "9 MB question file (CSV, 5,000 rows)",
    path: () => "/api/v1/question-sets/import",
    payload: async () => {
      const rows = Array.from({ length: 5_000 }, (_, i) => `"Q${i} ${"word ".repeat(360)}?",x`);
      return {
        name: "a large file",
        format: "csv",
        content: `question,answer\n${rows.join("\n")}\n`,
      };
    },
  },
];

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);

function startServe(home: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--no-worker"], {
    env: { ...process.env, RAGJUDGE_HOME: home, DATABASE_URL: "", OPENAI_BASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const origin = /ragjudge on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (origin && out.includes("/login?code=")) resolve({ child, origin });
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
}

/** Asks /health every 10 ms until `done` resolves; the latency of each answer, in ms. */
async function healthLatencies(origin: string, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  const finish = () => {
    finished = true;
  };
  done.then(finish, finish);
  const latencies: number[] = [];
  while (!finished) {
    const started = performance.now();
    await (await fetch(`${origin}/api/v1/health`)).arrayBuffer();
    if (!finished) latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return latencies;
}

function row(
  upload: string,
  status: number,
  uploadMs: number,
  latencies: number[],
): UploadsBenchRow {
  const sorted = [...latencies].sort((a, b) => a - b);
  const max = sorted.at(-1) ?? 0;
  return {
    upload,
    status,
    upload_ms: Math.round(uploadMs),
    health_answers: sorted.length,
    health_p50_ms: percentile(sorted, 0.5),
    health_p90_ms: percentile(sorted, 0.9),
    health_p99_ms: percentile(sorted, 0.99),
    health_max_ms: max,
    goal_met: max < 100,
  };
}

export async function benchUploads(): Promise<{ rows: UploadsBenchRow[]; load: number[] }> {
  const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-uploads-"));
  const { child, origin } = await startServe(home);
  const load = [loadavg()[0] ?? 0];
  try {
    const token = readFileSync(join(home, "token"), "utf8").trim();
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const created = await fetch(`${origin}/api/v1/collections`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "hostile uploads" }),
    });
    if (created.status !== 201) throw new Error(`creating a collection: HTTP ${created.status}`);
    const collectionId = ((await created.json()) as { id: string }).id;

    const idle = await healthLatencies(
      origin,
      new Promise((resolve) => setTimeout(resolve, IDLE_MS)),
    );
    const rows = [row("(idle, nothing uploaded)", 200, IDLE_MS, idle)];
    for (const upload of UPLOADS) {
      const body = JSON.stringify(await upload.payload());
      const started = performance.now();
      const sent = fetch(`${origin}${upload.path(collectionId)}`, {
        method: "POST",
        headers,
        body,
      }).then(async (response) => {
        await response.arrayBuffer();
        return { status: response.status, ms: performance.now() - started };
      });
      const latencies = await healthLatencies(origin, sent);
      const { status, ms } = await sent;
      rows.push(row(upload.name, status, ms, latencies));
    }
    load.push(loadavg()[0] ?? 0);
    return { rows, load };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    rmSync(home, { recursive: true, force: true });
  }
}
