import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cliArgv } from "./support/cli.js";

// `ragjudge serve` as a user starts it: the login URL it prints logs a browser in once.

const home = mkdtempSync(join(tmpdir(), "ragjudge-serve-"));
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  rmSync(home, { recursive: true, force: true });
});

/** Starts the server and resolves with the login URL it prints. */
function serve(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, cliArgv(["serve", ...args]), {
      env: {
        ...process.env,
        RAGJUDGE_HOME: home,
        DATABASE_URL: "",
        OPENAI_BASE_URL: "",
        OPENAI_API_KEY: "",
      },
    });
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\/login\?code=\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

it("prints a one-time login URL that lands on the page asked for, logged in", async () => {
  // Non-Latin-1 characters reach the Location header percent-encoded (they once gave a 500).
  const path = "/evaluations/list?q=票价";
  const login = await serve(["--port", "0", "--no-worker", "--path", path]);
  expect(new URL(login).searchParams.get("next")).toBe("/evaluations/list?q=%E7%A5%A8%E4%BB%B7");

  // Opening the link shows a page whose form posts the code; a browser sends it with its Origin.
  const page = await (await fetch(login, { headers: { "sec-fetch-site": "none" } })).text();
  const fields = [...page.matchAll(/name="(\w+)" value="([^"]*)"/g)].map(
    ([, name, value]) => [name ?? "", (value ?? "").replaceAll("&amp;", "&")] as [string, string],
  );
  const post = () =>
    fetch(new URL("/login", login), {
      method: "POST",
      redirect: "manual",
      headers: { origin: new URL(login).origin },
      body: new URLSearchParams(fields),
    });
  const opened = await post();
  expect(opened.status).toBe(303);
  expect(opened.headers.get("location")).toBe("/evaluations/list?q=%E7%A5%A8%E4%BB%B7");
  expect(decodeURI(opened.headers.get("location") ?? "")).toBe(path);
  const cookie = /ragjudge_session=[^;]+/.exec(opened.headers.get("set-cookie") ?? "")?.[0];
  expect(cookie).toBeDefined();

  const me = await fetch(new URL("/api/v1/session", login), { headers: { cookie: cookie ?? "" } });
  expect(await me.json()).toMatchObject({ user: { name: "local" }, via: "cookie" });

  const again = await post();
  expect(again.headers.get("location")).toBe("/login?error=invalid_code");
}, 60_000);
