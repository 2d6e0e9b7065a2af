// Failed logins and failed token or cookie lookups are limited per client address
// (docs/security.md), over real sockets: the address is the TCP peer's, so each test sends from
// loopback addresses of its own (127.0.0.2, .3, …) and is a client no other test blocks.

import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp, listen } from "../src/server/index.js";
import {
  createApiToken,
  createLoginCode,
  findOrCreateUser,
  type Store,
} from "../src/store/index.js";
import { openTestStore } from "./support/stores.js";

let store: Store;
let server: Awaited<ReturnType<typeof listen>>;
let aliceId: string;
let aliceToken: string;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request from `from` (a local address), as a browser or script on that host would send it. */
function send(
  from: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const url = new URL(path, server.url);
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: init.method ?? "GET",
        localAddress: from,
        agent: false,
        headers: {
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...init.headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const tokenLogin = (from: string, token: string) =>
  send(from, "/api/v1/session", { method: "POST", body: { token } });

/** What the login link's page posts: the code (and `next`) as a form, with the page's Origin. */
const redeem = (
  from: string,
  code: string,
  next?: string,
  origin: string | null = new URL(server.url).origin,
) => {
  const form = new URLSearchParams({ code, ...(next === undefined ? {} : { next }) });
  return sendForm(from, form.toString(), origin ?? undefined);
};

function sendForm(from: string, body: string, origin: string | undefined): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL("/login", server.url),
      {
        method: "POST",
        localAddress: from,
        agent: false,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(origin === undefined ? {} : { origin }),
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const cookieOf = (reply: Reply) =>
  /ragjudge_session=[^;]*/.exec(String(reply.headers["set-cookie"]))?.[0] ?? "";

beforeAll(async () => {
  store = await openTestStore("pglite");
  const alice = await findOrCreateUser(store.db, "alice");
  aliceId = alice.id;
  aliceToken = await createApiToken(store.db, alice.id);
  const app = createApp({ db: store.db, webDir: false, loginLimit: { maxFailures: 3 } });
  server = await listen(app, { port: 0 });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await store?.close();
});

it("never counts successful logins", async () => {
  for (let i = 0; i < 6; i++) {
    expect((await tokenLogin("127.0.0.3", aliceToken)).status).toBe(201);
    const code = await createLoginCode(store.db, aliceId);
    expect(cookieOf(await redeem("127.0.0.3", code))).toMatch(/^ragjudge_session=rs_/);
  }
});

it("answers 429 with Retry-After after the failures, to tokens and login links alike", async () => {
  const session = await tokenLogin("127.0.0.1", aliceToken);
  expect(session.status).toBe(201);
  const cookie = cookieOf(session);
  // A session logged in elsewhere, never used from this address.
  const elsewhere = cookieOf(await tokenLogin("127.0.0.9", aliceToken));

  // Three failures of either kind: a wrong token, two wrong codes.
  expect((await tokenLogin("127.0.0.1", "rj_guess")).status).toBe(401);
  for (const guess of ["wrong-1", "wrong-2"]) {
    const link = await redeem("127.0.0.1", guess);
    expect(link.headers.location).toBe("/login?error=invalid_code");
  }

  const blocked = await tokenLogin("127.0.0.1", "rj_guess");
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(800);
  expect(JSON.parse(blocked.body)).toMatchObject({ error: "too_many_attempts" });
  // Blocked means not looked up: even the right secret is refused, so guessing stops here.
  expect((await tokenLogin("127.0.0.1", aliceToken)).status).toBe(429);
  const code = await createLoginCode(store.db, aliceId);
  const link = await redeem("127.0.0.1", code);
  expect(link.status).toBe(429);
  expect(link.headers["retry-after"]).toBeDefined();
  // A valid session this address never used is a guess as far as the block knows: refused.
  const unheld = await send("127.0.0.1", "/api/v1/session", { headers: { cookie: elsewhere } });
  expect(unheld.status).toBe(429);

  // The session this address already held keeps working, and another address logs in as before.
  const held = await send("127.0.0.1", "/api/v1/session", { headers: { cookie } });
  expect(held.status).toBe(200);
  expect((await tokenLogin("127.0.0.2", aliceToken)).status).toBe(201);
  const other = await createLoginCode(store.db, aliceId);
  expect((await redeem("127.0.0.2", other)).status).toBe(303);
});

const bearer = (from: string, token: string) =>
  send(from, "/api/v1/collections", { headers: { authorization: `Bearer ${token}` } });

it("counts wrong bearer tokens on any route, and then refuses even the right one", async () => {
  // No secret sent is no guess: these are never counted.
  for (let i = 0; i < 5; i++)
    expect((await send("127.0.0.5", "/api/v1/collections")).status).toBe(401);
  // The same wrong token again is one guess, not five.
  for (let i = 0; i < 5; i++) expect((await bearer("127.0.0.5", "rj_guess_1")).status).toBe(401);
  expect((await bearer("127.0.0.5", "rj_guess_2")).status).toBe(401);
  expect((await bearer("127.0.0.5", aliceToken)).status).toBe(200);
  expect((await bearer("127.0.0.5", "rj_guess_3")).status).toBe(401);

  // Blocked: a right token this address never used is refused before it is looked up, on every
  // route and on login ...
  const fresh = await createApiToken(store.db, aliceId);
  const right = await bearer("127.0.0.5", fresh);
  expect(right.status).toBe(429);
  expect(Number(right.headers["retry-after"])).toBeGreaterThan(800);
  expect(JSON.parse(right.body)).toMatchObject({ error: "too_many_attempts" });
  expect((await tokenLogin("127.0.0.5", aliceToken)).status).toBe(429);
  const code = await createLoginCode(store.db, aliceId);
  expect((await redeem("127.0.0.5", code)).status).toBe(429);
  // ... while the token it already used goes on working, and new guesses stay refused.
  expect((await bearer("127.0.0.5", aliceToken)).status).toBe(200);
  expect((await bearer("127.0.0.5", "rj_guess_4")).status).toBe(429);
  // Requests without a secret are served as before: the login page can say how long to wait.
  expect((await send("127.0.0.5", "/api/v1/health")).status).toBe(200);
});

it("counts unknown session cookies, clears them, and keeps the session it logged in", async () => {
  const login = await tokenLogin("127.0.0.6", aliceToken);
  const cookie = cookieOf(login);
  const other = cookieOf(await tokenLogin("127.0.0.10", aliceToken));
  for (const stale of ["rs_ended-1", "rs_ended-2", "rs_ended-3"]) {
    const answer = await send("127.0.0.6", "/api/v1/session", {
      headers: { cookie: `ragjudge_session=${stale}` },
    });
    expect(answer.status).toBe(401);
    // The browser is told to drop it, so a page's later requests do not send it again.
    expect(String(answer.headers["set-cookie"])).toMatch(/ragjudge_session=;/);
  }
  // Its own session, held since its login, is served; another's live session is not looked up.
  const live = await send("127.0.0.6", "/api/v1/session", { headers: { cookie } });
  expect(live.status).toBe(200);
  const unheld = await send("127.0.0.6", "/api/v1/session", { headers: { cookie: other } });
  expect(unheld.status).toBe(429);
  expect(unheld.headers["retry-after"]).toBeDefined();
  // Logging out ends the held session: sent again, it is refused like any other secret.
  await send("127.0.0.6", "/api/v1/session", {
    method: "DELETE",
    headers: { cookie, origin: new URL(server.url).origin },
  });
  expect((await send("127.0.0.6", "/api/v1/session", { headers: { cookie } })).status).toBe(429);
});

it("neither redeems nor counts a login link opened by another site's page, over plain http", async () => {
  // Ten <img src=".../login?code=…"> on any page, more than the limit. Served over plain http on a
  // non-loopback address, browsers send no Sec-Fetch-Site: the GET only shows a page, whatever it
  // carries, and neither looks the code up nor counts it.
  for (let i = 0; i < 10; i++) {
    const img = await send("127.0.0.4", `/login?code=bogus-${i}`);
    expect(img.status).toBe(200);
    expect(img.headers["set-cookie"]).toBeUndefined();
  }
  // Another site's form posting codes carries its own Origin (or none): refused unlooked.
  for (let i = 0; i < 5; i++) {
    const foreign = await redeem("127.0.0.4", `bogus-post-${i}`, undefined, "http://evil.test");
    expect(foreign.headers.location).toBe("/login?error=link_from_elsewhere");
  }
  const bare = await redeem("127.0.0.4", "bogus-bare", undefined, null);
  expect(bare.headers.location).toBe("/login?error=link_from_elsewhere");
  const code = await createLoginCode(store.db, aliceId);
  const opened = await send("127.0.0.4", `/login?code=${code}&next=%2Fcollections`);
  expect(opened.headers["set-cookie"]).toBeUndefined();
  expect(opened.headers["content-security-policy"]).toContain("form-action 'self'");
  // The page's form holds the code and `next` (escaped), and auto-submits only when the browser
  // says a person opened the link (`none`), never for a page of another site.
  expect(opened.body).toContain(`name="code" value="${code}"`);
  expect(opened.body).toContain('name="next" value="/collections"');
  expect(opened.body).not.toContain("<script>");
  const pasted = await send("127.0.0.4", `/login?code=${code}`, {
    headers: { "sec-fetch-site": "none" },
  });
  expect(pasted.body).toContain("<script>");
  const escaped = await send("127.0.0.4", `/login?code=${encodeURIComponent('"><script>x')}`);
  expect(escaped.body).toContain('value="&quot;&gt;&lt;script&gt;x"');
  // The code is not spent by any of that, and the address is not blocked: its own page's POST logs in.
  const posted = await redeem("127.0.0.4", code, "/collections");
  expect(posted.status).toBe(303);
  expect(posted.headers.location).toBe("/collections");
  expect(cookieOf(posted)).toMatch(/^ragjudge_session=rs_/);
  expect((await tokenLogin("127.0.0.4", aliceToken)).status).toBe(201);
});

it("sends a login link's non-Latin-1 `next` percent-encoded, and logs in", async () => {
  const code = await createLoginCode(store.db, aliceId);
  const link = await redeem("127.0.0.7", code, "/evaluations/list?q=票价#结果");
  expect(link.status).toBe(303);
  expect(link.headers.location).toBe("/evaluations/list?q=%E7%A5%A8%E4%BB%B7#%E7%BB%93%E6%9E%9C");
  const me = await send("127.0.0.7", "/api/v1/session", { headers: { cookie: cookieOf(link) } });
  expect(me.status).toBe(200);
});
