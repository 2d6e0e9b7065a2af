import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const BIN = new URL("../../src/cli/bin.ts", import.meta.url).pathname;
// Resolved here, not in the child's cwd, so a test may run the CLI from any directory.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `ragjudge` CLI (from source) in a child process. The LLM and database variables
 * of the test runner's environment are cleared unless `env` sets them.
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", TSX, BIN, ...args], {
      ...(options.cwd ? { cwd: options.cwd } : {}),
      env: {
        ...process.env,
        OPENAI_BASE_URL: "",
        OPENAI_API_KEY: "",
        DATABASE_URL: "",
        ...options.env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
