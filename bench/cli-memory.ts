// Memory of `ragjudge eval` as a user runs it (issue 15 §5): the installed entry point
// (bin/ragjudge.js, compiled JS) on a fresh embedded home, importing a 2,000-question JSONL file,
// ingesting the bundled corpus, and evaluating the built-in bot with the rubric and reference
// judges against the scripted OpenAI-compatible server (its own process). Peak RSS is the CLI
// process's VmHWM, read from /proc while it runs. Goal: below 400 MB. It runs dist/ (npm run build).

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedLlmProcess } from "../test/support/scripted-llm.js";
import { UNIVERSAL_REPLY } from "./evaluations.js";

export interface CliMemoryBench {
  questions: number;
  judges: string;
  seconds: number;
  peak_rss_mb: number;
  exit_code: number | null;
  goal: string;
  met: boolean;
}

const ROOT = fileURLToPath(new URL("../", import.meta.url));

function peakRssKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  } catch {
    return 0; // exited
  }
}

export async function benchCliMemory(
  options: { questions?: number } = {},
): Promise<CliMemoryBench> {
  const questions = options.questions ?? 2_000;
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-bench-cli-"));
  const file = join(dir, "questions.jsonl");
  writeFileSync(
    file,
    Array.from({ length: questions }, (_, i) =>
      JSON.stringify({
        question: `When did the Lanting Metro open Line 1? (#${i})`,
        ground_truth: "Line 1 opened on 18 September 2009.",
        question_type: "FACTUAL",
      }),
    ).join("\n") + "\n",
  );
  const server = await startScriptedLlmProcess({ replies: [{ reply: { auto: UNIVERSAL_REPLY } }] });
  try {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        join(ROOT, "bin/ragjudge.js"),
        "eval",
        "--collection",
        "lanting",
        "--docs",
        join(ROOT, "examples/corpus"),
        "--questions",
        file,
        "--judge",
        "rubric,reference",
        "--format",
        "json",
        "--out",
        join(dir, "report.json"),
      ],
      {
        cwd: dir,
        env: {
          ...process.env,
          RAGJUDGE_HOME: join(dir, "home"),
          // The generator and judge only: the embedder and rewriter stay offline, as in the
          // evaluation bench, so a question costs generate + review + rubric + reference.
          RAGJUDGE_GENERATOR_BASE_URL: server.baseUrl,
          RAGJUDGE_JUDGE_BASE_URL: server.baseUrl,
        },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    let peakKb = 0;
    const sampler = setInterval(() => {
      if (child.pid !== undefined) peakKb = Math.max(peakKb, peakRssKb(child.pid));
    }, 100);
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    clearInterval(sampler);
    if (code !== 0) throw new Error(`ragjudge eval exited ${code}: ${stderr}`);
    const peakMb = peakKb / 1024;
    return {
      questions,
      judges: "rubric,reference",
      seconds: Math.round((performance.now() - started) / 10) / 100,
      peak_rss_mb: Math.round(peakMb),
      exit_code: code,
      goal: "< 400 MB",
      met: peakMb < 400,
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
