import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The installed entry point (`bin/ragjudge.js`, which runs the bundle dist/cli/ragjudge.js). The
 * test setup rebuilds dist/ and the bundle when a source file is newer (test/support/fresh-build.ts),
 * so a spawned CLI runs the code under test. Bundled, a process starts on ~0.25 s of CPU, where
 * through tsx's loader it took ~1.8 s; this suite starts about a hundred of them.
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

/** A CLI process started by `spawnCli`, with what it has written so far. */
export interface SpawnedCli {
  child: ChildProcess;
  /** Its exit code, or the signal that ended it, once its output is closed. */
  exited: Promise<number | NodeJS.Signals | null>;
  out(): string;
  err(): string;
}

/**
 * Starts the real `ragjudge` CLI in a child process without waiting for it. The LLM and database
 * variables of the test runner's environment are cleared unless `env` sets them.
 */
export function spawnCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): SpawnedCli {
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
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on("close", (code, signal) => resolve(code ?? signal)),
  );
  return { child, exited, out: () => stdout, err: () => stderr };
}

/** Runs the real `ragjudge` CLI in a child process to its end (`spawnCli`). */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliRun> {
  const run = spawnCli(args, options);
  const ended = await run.exited;
  return { code: typeof ended === "number" ? ended : null, stdout: run.out(), stderr: run.err() };
}
