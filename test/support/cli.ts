import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The installed entry point (`bin/ragjudge.js`, which runs dist/). The test setup rebuilds dist/
 * when a source file is newer than its build (test/support/fresh-build.ts), so a spawned CLI runs
 * the code under test. Compiled, a process starts ~1.2 s of CPU sooner than through tsx's loader,
 * and this suite starts about a hundred of them.
 */
export const CLI_BIN = fileURLToPath(new URL("../../bin/ragjudge.js", import.meta.url));

/** `node bin/ragjudge.js ...args`, as `spawn` takes it. */
export function cliArgv(args: readonly string[]): string[] {
  return [CLI_BIN, ...args];
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `ragjudge` CLI in a child process. The LLM and database variables of the test
 * runner's environment are cleared unless `env` sets them.
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArgv(args), {
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
