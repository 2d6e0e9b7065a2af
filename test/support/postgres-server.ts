import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { openStore } from "../../src/store/index.js";

/** A throwaway PostgreSQL server in a temp dir on a free loopback port (initdb + pg_ctl). */
export interface PostgresServer {
  url: string;
  /** Its data directory (postmaster.pid names the server's process). */
  dataDir: string;
  /**
   * Restarts the server as an operator would (`pg_ctl restart -m fast`): every connection is
   * terminated (57P01), then the server accepts new ones on the same port. `downMs` keeps it down
   * that long in between.
   */
  restart(options?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
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

const execFileAsync = promisify(execFile);

/**
 * Runs a server binary; initdb and the server refuse to run as root, so as root it runs as the
 * postgres account, which then owns the directories it touches.
 */
async function runAsPostgres(bin: string, args: string[]): Promise<void> {
  if (process.getuid?.() === 0)
    await execFileAsync("runuser", ["-u", "postgres", "--", bin, ...args]);
  else await execFileAsync(bin, args);
}

/** A temp dir the server's account may write in. */
async function serverDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) await execFileAsync("chown", ["postgres:", dir]);
  return dir;
}

const initdbArgs = (data: string) => [
  "-D",
  data,
  ..."-U ragjudge -A trust -E UTF8 --no-sync".split(" "),
];

/**
 * A new, never-started database cluster (initdb) in a temp dir, for startPostgresServer to copy:
 * the test setup makes one per run, where each server's own initdb had taken 0.4 s alone and
 * 4-5 s with the suite loading both cores. `remove()` deletes it.
 */
export async function initCluster(): Promise<{ dir: string; remove(): void }> {
  const dir = await serverDir("ragjudge-pgcluster-");
  const data = join(dir, "data");
  await runAsPostgres(join(findPostgresBinDir(), "initdb"), initdbArgs(data));
  return { dir: data, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts a server in a temp dir of its own, on a copy of `cluster` (initCluster's) when given,
 * else on a cluster initdb makes there.
 */
export async function startPostgresServer(cluster?: string): Promise<PostgresServer> {
  const bin = findPostgresBinDir();
  const dir = await serverDir("ragjudge-pg-");
  const data = join(dir, "data");
  // -a keeps the files' owner and modes (the server insists on 0700).
  if (cluster) await execFileAsync("cp", ["-a", cluster, data]);
  else await runAsPostgres(join(bin, "initdb"), initdbArgs(data));
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
  const pgCtl = (args: string[]) => runAsPostgres(join(bin, "pg_ctl"), ["-D", data, ...args]);
  const start = () => pgCtl(["-o", options, "-l", join(dir, "server.log"), "-w", "start"]);
  await start();
  const restart = async ({ downMs = 0 } = {}) => {
    await pgCtl(["-m", "fast", "-w", "stop"]);
    if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
    await start();
  };
  const stop = async () => {
    try {
      await pgCtl(["-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return { url: `postgres://ragjudge@127.0.0.1:${port}/postgres`, dataDir: data, restart, stop };
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
