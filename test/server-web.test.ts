import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/server/index.js";
import {
  createApiToken,
  createEvaluation,
  createLoginCode,
  findOrCreateUser,
  queryRows,
  type Store,
  transitionEvaluation,
} from "../src/store/index.js";
import { sql } from "drizzle-orm";
import { describeEachStore, openTestStore } from "./support/stores.js";

const ORIGIN = "http://127.0.0.1:8787";
const INDEX = "<!doctype html><title>ragjudge</title><div id=root></div>";
const SCRIPT = "console.log('app');";

let webDir = "";
beforeAll(() => {
  webDir = mkdtempSync(join(tmpdir(), "ragjudge-web-"));
  mkdirSync(join(webDir, "assets"));
  writeFileSync(join(webDir, "index.html"), INDEX);
  writeFileSync(join(webDir, "assets", "index-3f9a1c.js"), SCRIPT);
  writeFileSync(join(webDir, "favicon.svg"), "<svg/>");
});
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

/** The session cookie's `name=value` from a response, for the next request's Cookie header. */
function sessionCookie(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  const match = /ragjudge_session=[^;]*/.exec(header);
  if (!match) throw new Error(`no session cookie in ${JSON.stringify(header)}`);
  return match[0];
}

describe("serving the web app", () => {
  // The static routes read no table: one in-memory store serves the whole block.
  let store: Store | undefined;
  beforeAll(async () => {
    store = await openTestStore("pglite");
  });
  afterAll(() => store?.close());
  const db = () => {
    if (!store) throw new Error("store not open");
    return store.db;
  };
  const get = (path: string) => createApp({ db: db(), webDir }).request(`${ORIGIN}${path}`);

  it("serves hashed assets for good and the page itself never from cache", async () => {
    const asset = await get("/assets/index-3f9a1c.js");
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe(SCRIPT);
    expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");

    const page = await get("/");
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(INDEX);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });

  it("answers a deep link with the app, so a reload works", async () => {
    for (const path of ["/evaluations", "/evaluations/4b1f/", "/evaluations/question-sets/new"]) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).toBe(INDEX);
    }
  });

  it("answers a missing asset with a 404, never the page", async () => {
    for (const path of ["/assets/index-000000.js", "/assets/chunk", "/logo.png"]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain("<div id=root>");
    }
    expect((await get("/favicon.svg")).status).toBe(200);
  });

  it("serves nothing outside its folder", async () => {
    for (const path of ["/assets/..%2f..%2f..%2fetc%2fpasswd", "/assets/%2e%2e/index.html.bak"]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it("keeps API paths out of the app: an unknown one is a JSON 404", async () => {
    const response = await get("/api/v2/anything");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "not_found" });
  });

  it("says how to build the app when it is missing", async () => {
    const missing = join(webDir, "not-built");
    const response = await createApp({ db: db(), webDir: missing }).request(
      `${ORIGIN}/evaluations`,
    );
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("npm run build");
  });
});

describeEachStore("browser sessions", (use) => {
  const app = () => createApp({ db: use().db, webDir: false });
  const request = (path: string, init: RequestInit = {}) => app().request(`${ORIGIN}${path}`, init);

  async function aliceAndBob() {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bob = await findOrCreateUser(db, "bob");
    return {
      alice,
      bob,
      aliceToken: await createApiToken(db, alice.id),
      bobToken: await createApiToken(db, bob.id),
    };
  }

  /** What the login link's page posts: the code (and `next`) as a form, with this origin. */
  const redeem = (code: string, next?: string) =>
    request("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ code, ...(next === undefined ? {} : { next }) }).toString(),
    });

  async function loginByLink(workspaceId: string, next = "/evaluations/abc") {
    return redeem(await createLoginCode(use().db, workspaceId), next);
  }

  it("logs in once through the printed link, drops the code, and sets a strict cookie", async () => {
    const { alice } = await aliceAndBob();
    const code = await createLoginCode(use().db, alice.id);
    const login = await redeem(code, "/evaluations/abc");
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/evaluations/abc");
    const header = login.headers.get("set-cookie") ?? "";
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Strict/);
    expect(header).toMatch(/Path=\//);
    expect(header).not.toMatch(/Secure/);

    const me = await request("/api/v1/session", { headers: { cookie: sessionCookie(login) } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { name: "alice" }, via: "cookie" });

    // Single use: the same link again logs no one in.
    const again = await redeem(code);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/login?error=invalid_code");
    expect(again.headers.get("set-cookie")).toBeNull();
  });

  it("refuses an expired code and sends a login elsewhere only on this server", async () => {
    const { alice } = await aliceAndBob();
    const expired = await createLoginCode(use().db, alice.id, -1_000);
    const response = await redeem(expired);
    expect(response.headers.get("location")).toBe("/login?error=invalid_code");
    for (const next of [
      "//evil.example/x",
      "https://evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/..//evil.example",
      "/x\r\nSet-Cookie: a=b",
    ]) {
      const login = await loginByLink(alice.id, next);
      expect(login.headers.get("location"), next).toBe("/evaluations");
    }
  });

  it("leaves a login code unspent when its session cannot be written", async () => {
    const { alice } = await aliceAndBob();
    // The database itself refuses the session (a trigger), as a full disk or a lost connection
    // would: the code is spent in the same transaction, so it is not spent.
    const run = (statement: string) => queryRows(use().db, sql.raw(statement));
    await run(`create function refuse_session() returns trigger language plpgsql
      as $$ begin raise exception 'no sessions today'; end $$`);
    await run(`create trigger refuse_session before insert on web_sessions
      for each row execute function refuse_session()`);
    const code = await createLoginCode(use().db, alice.id);
    try {
      expect((await redeem(code)).status).toBe(500);
    } finally {
      await run("drop trigger refuse_session on web_sessions");
      await run("drop function refuse_session()");
    }
    const again = await redeem(code);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/evaluations");
    expect(sessionCookie(again)).toMatch(/^ragjudge_session=rs_/);
  });

  it("stores codes and sessions only as hashes", async () => {
    const { alice } = await aliceAndBob();
    const code = await createLoginCode(use().db, alice.id);
    const login = await redeem(code);
    const cookieValue = sessionCookie(login).split("=")[1] ?? "";
    const stored = await queryRows<{ token_hash: string }>(
      use().db,
      sql`select token_hash from web_sessions`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).not.toContain(cookieValue);
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const codes = await queryRows<{ n: number }>(
      use().db,
      sql`select count(*)::int as n from login_codes`,
    );
    expect(codes[0]?.n).toBe(0);
  });

  it("turns a pasted API token into a session, and logs out", async () => {
    const { aliceToken } = await aliceAndBob();
    const wrong = await request("/api/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: JSON.stringify({ token: "rj_nothing" }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();

    const foreign = await request("/api/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ token: aliceToken }),
    });
    expect(foreign.status).toBe(403);

    const login = await request("/api/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: JSON.stringify({ token: aliceToken }),
    });
    expect(login.status).toBe(201);
    expect(await login.json()).toMatchObject({ user: { name: "alice" } });
    const cookie = sessionCookie(login);

    const logout = await request("/api/v1/session", {
      method: "DELETE",
      headers: { cookie, origin: ORIGIN },
    });
    expect(logout.status).toBe(204);
    expect(logout.headers.get("set-cookie")).toMatch(/ragjudge_session=;/);
    const after = await request("/api/v1/session", { headers: { cookie } });
    expect(after.status).toBe(401);
  });

  it("accepts a cookie's state change only from the server's own origin", async () => {
    const { alice } = await aliceAndBob();
    const cookie = sessionCookie(await loginByLink(alice.id));
    const create = (name: string, origin?: string) =>
      request("/api/v1/collections", {
        method: "POST",
        headers: {
          cookie,
          "content-type": "application/json",
          ...(origin ? { origin } : {}),
        },
        body: JSON.stringify({ name }),
      });
    const foreign = await create("docs", "https://evil.example");
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: "forbidden_origin" });
    expect((await create("docs")).status).toBe(403);
    expect((await create("docs", ORIGIN)).status).toBe(201);

    const list = await request("/api/v1/collections", { headers: { cookie } });
    expect(((await list.json()) as { items: unknown[] }).items).toHaveLength(1);
  });

  it("keeps bearer tokens working for scripts, whatever their origin", async () => {
    const { aliceToken } = await aliceAndBob();
    const response = await request("/api/v1/collections", {
      method: "POST",
      headers: {
        authorization: `bearer ${aliceToken}`,
        "content-type": "application/json",
        origin: "https://elsewhere.example",
      },
      body: JSON.stringify({ name: "docs" }),
    });
    expect(response.status).toBe(201);
    const me = await request("/api/v1/session", {
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(await me.json()).toMatchObject({ via: "bearer", expires_at: null });
  });

  it("streams a run's events to the cookie's owner, and to no one else", async () => {
    const { alice, bob } = await aliceAndBob();
    const run = await createEvaluation(use().db, alice.id, {
      user_id: alice.id,
      name: "empty",
      bot_id: "builtin",
      judge_llm_model_id: "offline",
      config: {},
      questions: [],
    });
    await transitionEvaluation(use().db, run.id, ["PENDING"], "COMPLETED");
    const aliceCookie = sessionCookie(await loginByLink(alice.id));
    const bobCookie = sessionCookie(await loginByLink(bob.id));

    const stream = await request(`/api/v1/evaluations/${run.id}/events`, {
      headers: { cookie: aliceCookie },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await stream.text();
    expect(text).toContain("event: progress");
    expect(text).toContain("event: end");

    const foreign = await request(`/api/v1/evaluations/${run.id}/events`, {
      headers: { cookie: bobCookie },
    });
    expect(foreign.status).toBe(404);
  });
});
