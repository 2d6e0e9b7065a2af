import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createApiToken,
  createLoginCode,
  findOrCreateUser,
  openStore,
  type Store,
} from "../../../src/store/index.js";
import { cliArgv } from "../../support/cli.js";

const ROOT = new URL("../../../", import.meta.url).pathname;
export const WEB_INDEX = join(ROOT, "dist/web/index.html");

export interface AppServer {
  /** e.g. "http://127.0.0.1:40123". */
  origin: string;
  /** The one-time login link `ragjudge serve` printed. */
  loginUrl: string;
  /** The local user's API token (from $RAGJUDGE_HOME/token). */
  token: string;
  /**
   * The server's database, for setting up what a test needs (users, login codes). Only on a
   * PostgreSQL server: the embedded store allows one process at a time, so there it throws.
   */
  store: Store;
  /** Calls the API as the local user (or with another token). */
  api(path: string, init?: RequestInit & { json?: unknown; token?: string }): Promise<Response>;
  /** Calls the API and returns its JSON, failing on an error status. */
  json<T = Record<string, unknown>>(
    path: string,
    init?: RequestInit & { json?: unknown; token?: string },
  ): Promise<T>;
  /** A new user with an API token. */
  createUser(name: string): Promise<{ id: string; token: string }>;
  /** A fresh one-time login link for a user. */
  loginLinkFor(userId: string, next?: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the real `ragjudge serve` (from source, with its worker) on the given (fresh) database,
 * or without one on the embedded store (PGlite) in its home, in an empty temp home whose
 * configuration lets HTTP bots on 127.0.0.1 be reached, with no LLM configured unless `config`
 * sets one. The web app it serves is the one `npm run build` put in dist/web.
 */
export async function startAppServer(options: {
  /** A PostgreSQL database; without it the server uses the embedded store. */
  databaseUrl?: string;
  args?: string[];
  /** More of ragjudge.config.json, e.g. an `llm` section pointing a role at a scripted server. */
  config?: Record<string, unknown>;
}): Promise<AppServer> {
  if (!existsSync(WEB_INDEX)) {
    throw new Error(`${WEB_INDEX} is missing: run \`npm run build\` before the browser tests`);
  }
  const { databaseUrl } = options;
  const home = mkdtempSync(join(tmpdir(), "ragjudge-e2e-"));
  // The tests' HTTP bots listen on loopback, which the bot network policy refuses by default.
  writeFileSync(
    join(home, "ragjudge.config.json"),
    JSON.stringify({ bots: { allow_networks: ["127.0.0.1/32"] }, ...options.config }),
  );
  const child = spawn(
    process.execPath,
    cliArgv(["serve", "--port", "0", ...(options.args ?? [])]),
    {
      cwd: home,
      env: {
        ...process.env,
        RAGJUDGE_HOME: home,
        DATABASE_URL: databaseUrl ?? "",
        OPENAI_BASE_URL: "",
        OPENAI_API_KEY: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const loginUrl = await waitForLoginUrl(child);
  const origin = new URL(loginUrl).origin;
  const token = readFileSync(join(home, "token"), "utf8").trim();
  const store = databaseUrl ? await openStore({ databaseUrl }) : undefined;
  const mustStore = () => {
    if (!store) throw new Error("the embedded store is the server's alone: use the API");
    return store;
  };

  const api: AppServer["api"] = (path, init = {}) => {
    const { json, token: as, ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set("authorization", `Bearer ${as ?? token}`);
    if (json !== undefined) headers.set("content-type", "application/json");
    return fetch(`${origin}${path}`, {
      ...rest,
      headers,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };

  return {
    origin,
    loginUrl,
    token,
    get store() {
      return mustStore();
    },
    api,
    async json<T>(path: string, init?: RequestInit & { json?: unknown; token?: string }) {
      const response = await api(path, init);
      const text = await response.text();
      if (!response.ok)
        throw new Error(`${init?.method ?? "GET"} ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    },
    async createUser(name) {
      const { db } = mustStore();
      const user = await findOrCreateUser(db, name);
      return { id: user.id, token: await createApiToken(db, user.id) };
    },
    async loginLinkFor(userId, next) {
      const url = new URL("/login", origin);
      url.searchParams.set("code", await createLoginCode(mustStore().db, userId));
      if (next) url.searchParams.set("next", next);
      return url.href;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      await store?.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

function waitForLoginUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(
      () => reject(new Error(`ragjudge serve did not start in 60 s:\n${out}\n${err}`)),
      60_000,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/login\?code=\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`ragjudge serve exited (${code}) before it was ready:\n${out}\n${err}`));
    });
  });
}
