import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliArgv } from "./cli.js";

/** A real `ragjudge serve` in a child process, on a home (and database) that outlives it. */
export interface ServeProcess {
  origin: string;
  /** The home's local user's API token. */
  token: string;
  /** Stops it with `signal` (SIGKILL: as a crash, nothing flushed) and waits for its exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** What it wrote to stderr so far. */
  err(): string;
}

/**
 * Starts `ragjudge serve` on `home` (the embedded store there, or `databaseUrl`) and resolves when
 * it prints its login link; started again on the same home and port, it is the same server
 * restarted. The LLM variables of the test runner are cleared.
 */
export async function startServe(options: {
  home: string;
  port: number;
  databaseUrl?: string;
  args?: string[];
}): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    cliArgv(["serve", "--port", String(options.port), ...(options.args ?? [])]),
    {
      cwd: options.home,
      env: {
        ...process.env,
        RAGJUDGE_HOME: options.home,
        DATABASE_URL: options.databaseUrl ?? "",
        OPENAI_BASE_URL: "",
        OPENAI_API_KEY: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`ragjudge serve did not start in 90 s:\n${out}\n${err}`)),
      90_000,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (/http:\/\/127\.0\.0\.1:\d+\/login\?code=/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`ragjudge serve exited (${code ?? signal}) before it listened:\n${err}`));
    });
  });
  return {
    origin: `http://127.0.0.1:${options.port}`,
    token: readFileSync(join(options.home, "token"), "utf8").trim(),
    async kill(signal = "SIGKILL") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    err: () => err,
  };
}
