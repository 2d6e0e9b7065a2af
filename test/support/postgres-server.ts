import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openStore } from "../../src/store/index.js";

/** A throwaway PostgreSQL server in a temp dir on a free loopback port (initdb + pg_ctl). */
export interface PostgresServer {
  url: string;
  /**
   * Restarts the server as an operator would (`pg_ctl restart -m fast`): every connection is
   * terminated (57P01), then the server accepts new ones on the same port. `downMs` keeps it down
   * that long in between.
   */
  restart(options?: { downMs?: number }): Promise<void>;
  stop(): void;
}

/** Debian keeps the server binaries off PATH, in /usr/lib/postgresql/<major>/bin. */
export function findPostgresBinDir(): string {
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((name) => existsSync(join(debian, name, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0]) return join(debian, majors[0], "bin");
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  const found = which.stdout.trim();
  if (which.status === 0 && found) return join(found, "..");
  throw new Error(
    "PostgreSQL server binaries (initdb, pg_ctl) not found: run `bash scripts/ensure-postgres.sh`",
  );
}

/** A loopback port free right now (the listener that found it is closed). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = findPostgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-pg-"));
  const data = join(dir, "data");
  // initdb refuses to run as root: hand the directory to the postgres account and run as it.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, cmd), ...args], {
          stdio: "pipe",
        })
      : execFileSync(join(bin, cmd), args, { stdio: "pipe" });

  run("initdb", ["-D", data, "-U", "ragjudge", "-A", "trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
  ].join(" ");
  const start = () =>
    run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "start"]);
  start();
  const restart = async ({ downMs = 0 } = {}) => {
    run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
    if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
    start();
  };
  const stop = () => {
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return { url: `postgres://ragjudge@127.0.0.1:${port}/postgres`, restart, stop };
}

/**
 * A migrated, empty database the test setup makes on the shared server
 * (`createMigratedTemplate`), which `createDatabase` copies: migrating each new database again
 * cost the server ~0.1 s, some sixty times a run.
 */
export const MIGRATED_TEMPLATE = "ragjudge_migrated";

const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Makes MIGRATED_TEMPLATE on the server: a new database, migrated by opening a store on it. */
export async function createMigratedTemplate(serverUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database ${MIGRATED_TEMPLATE}`);
  } finally {
    await client.end();
  }
  await (await openStore({ databaseUrl: databaseUrl(serverUrl, MIGRATED_TEMPLATE) })).close();
}

/**
 * Each test file gets its own database on the shared server, so files can run in parallel: a
 * copy of MIGRATED_TEMPLATE where the server has one, else (or with `empty`) a new database that
 * the first store opened on it migrates.
 */
export async function createDatabase(
  serverUrl: string,
  prefix = "t",
  options: { empty?: boolean } = {},
): Promise<string> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const hasTemplate =
      !options.empty &&
      (await client.query("select 1 from pg_database where datname = $1", [MIGRATED_TEMPLATE]))
        .rowCount === 1;
    await client.query(
      `create database ${name}${hasTemplate ? ` template ${MIGRATED_TEMPLATE}` : ""}`,
    );
  } finally {
    await client.end();
  }
  return databaseUrl(serverUrl, name);
}
