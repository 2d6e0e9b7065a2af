// Live progress streams under load (issue 22 §3): API read latency and the server's CPU while N
// streams follow one running run. Before, every stream polled the database every 500 ms on its
// own; now the streams on a run share one poller, and a user may hold 20 open (the cap is raised
// here to RAGJUDGE_STREAMS_PER_USER=5000 to measure the sharing; the default's row shows the 429s).
// `npm run bench streams`.

import { type ChildProcess, fork } from "node:child_process";
import { request } from "node:http";
import { fileURLToPath } from "node:url";

interface Served {
  url: string;
  token: string;
  runId: string;
}

export interface StreamsBenchRow {
  streams_asked: number;
  streams_open: number;
  refused_429: number;
  read_p50_ms: number;
  read_p95_ms: number;
  /** The server's CPU over the measuring window, in % of one core. */
  server_cpu_percent: number;
  cap: string;
}

const SERVER = fileURLToPath(new URL("./streams-server.ts", import.meta.url));

function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; served: Served }> {
  const child = fork(SERVER, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve({ child, served: JSON.parse(line) as Served });
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
}

const cpuOf = (child: ChildProcess) =>
  new Promise<NodeJS.CpuUsage>((resolve) => {
    child.once("message", (usage) => resolve(usage as NodeJS.CpuUsage));
    child.send("cpu");
  });

/** Opens a stream; resolves with its status once the head (and for 200, the first event) came. */
function openStream(served: Served): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${served.url}/api/v1/evaluations/${served.runId}/events`,
      { headers: { authorization: `Bearer ${served.token}` }, agent: false },
      (res) => {
        const close = () => req.destroy();
        if (res.statusCode !== 200) {
          res.resume();
          resolve({ status: res.statusCode ?? 0, close });
          return;
        }
        res.once("data", () => resolve({ status: 200, close }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function readLatency(served: Served): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${served.url}/api/v1/evaluations/${served.runId}`, {
    headers: { authorization: `Bearer ${served.token}` },
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`read answered ${response.status}`);
  return performance.now() - start;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export async function benchStreams(
  counts: readonly number[] = [0, 300, 1000],
  options: { reads?: number; windowMs?: number } = {},
): Promise<StreamsBenchRow[]> {
  const rows: StreamsBenchRow[] = [];
  const cases = [
    ...counts.map((n) => ({ n, cap: "5000" })),
    ...counts
      .filter((n) => n > 20)
      .slice(-1)
      .map((n) => ({ n, cap: "default" })),
  ];
  for (const { n, cap } of cases) {
    const { child, served } = await startServer(
      cap === "default" ? {} : { RAGJUDGE_STREAMS_PER_USER: cap },
    );
    try {
      const streams: Array<{ status: number; close(): void }> = [];
      // Opened 50 at a time, as a page of tabs or a script would.
      for (let i = 0; i < n; i += 50) {
        streams.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(50, n - i) }, () => openStream(served)),
          )),
        );
      }
      // Let the pollers settle into their rhythm before measuring.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const before = await cpuOf(child);
      const started = performance.now();
      const latencies: number[] = [];
      const reads = options.reads ?? 40;
      const windowMs = options.windowMs ?? 10_000;
      for (let i = 0; i < reads; i++) {
        latencies.push(await readLatency(served));
        await new Promise((resolve) => setTimeout(resolve, windowMs / reads));
      }
      const after = await cpuOf(child);
      const elapsedUs = (performance.now() - started) * 1000;
      const cpuUs = after.user - before.user + (after.system - before.system);
      rows.push({
        streams_asked: n,
        streams_open: streams.filter((s) => s.status === 200).length,
        refused_429: streams.filter((s) => s.status === 429).length,
        read_p50_ms: Math.round(percentile(latencies, 50) * 10) / 10,
        read_p95_ms: Math.round(percentile(latencies, 95) * 10) / 10,
        server_cpu_percent: Math.round((cpuUs / elapsedUs) * 1000) / 10,
        cap,
      });
      for (const stream of streams) stream.close();
    } finally {
      child.send("stop");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
  return rows;
}
