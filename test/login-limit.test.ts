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
    expect((await send("127.0.0.3", `/login?code=${code}`)).status).toBe(303);
  }
});

it("answers 429 with Retry-After after the failures, to tokens and login links alike", async () => {
  const session = await tokenLogin("127.0.0.1", aliceToken);
  expect(session.status).toBe(201);
  const cookie = /ragjudge_session=[^;]*/.exec(String(session.headers["set-cookie"]))?.[0] ?? "";

  // Three failures of either kind: a wrong token, two wrong codes.
  expect((await tokenLogin("127.0.0.1", "rj_guess")).status).toBe(401);
  for (const guess of ["wrong-1", "wrong-2"]) {
    const link = await send("127.0.0.1", `/login?code=${guess}`);
    expect(link.headers.location).toBe("/login?error=invalid_code");
  }

  const blocked = await tokenLogin("127.0.0.1", "rj_guess");
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(800);
  expect(JSON.parse(blocked.body)).toMatchObject({ error: "too_many_attempts" });
  // Blocked means not looked up: even the right secret is refused, so guessing stops here.
  expect((await tokenLogin("127.0.0.1", aliceToken)).status).toBe(429);
  const code = await createLoginCode(store.db, aliceId);
  const link = await send("127.0.0.1", `/login?code=${code}`);
  expect(link.status).toBe(429);
  expect(link.headers["retry-after"]).toBeDefined();

  // A session already held is not looked up either (telling it from a guess is the lookup), while
  // another address logs in as before.
  const held = await send("127.0.0.1", "/api/v1/session", { headers: { cookie } });
  expect(held.status).toBe(429);
  expect(held.headers["retry-after"]).toBeDefined();
  expect((await tokenLogin("127.0.0.2", aliceToken)).status).toBe(201);
  const other = await createLoginCode(store.db, aliceId);
  expect((await send("127.0.0.2", `/login?code=${other}`)).status).toBe(303);
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

  // Blocked: the right token is refused before it is looked up, on every route and on login.
  const right = await bearer("127.0.0.5", aliceToken);
  expect(right.status).toBe(429);
  expect(Number(right.headers["retry-after"])).toBeGreaterThan(800);
  expect(JSON.parse(right.body)).toMatchObject({ error: "too_many_attempts" });
  expect((await tokenLogin("127.0.0.5", aliceToken)).status).toBe(429);
  const code = await createLoginCode(store.db, aliceId);
  expect((await send("127.0.0.5", `/login?code=${code}`)).status).toBe(429);
  // Requests without a secret are served as before: the login page can say how long to wait.
  expect((await send("127.0.0.5", "/api/v1/health")).status).toBe(200);
});

it("counts unknown session cookies, clears them, and then refuses even a live one", async () => {
  const login = await tokenLogin("127.0.0.6", aliceToken);
  const cookie = /ragjudge_session=[^;]*/.exec(String(login.headers["set-cookie"]))?.[0] ?? "";
  for (const stale of ["rs_ended-1", "rs_ended-2", "rs_ended-3"]) {
    const answer = await send("127.0.0.6", "/api/v1/session", {
      headers: { cookie: `ragjudge_session=${stale}` },
    });
    expect(answer.status).toBe(401);
    // The browser is told to drop it, so a page's later requests do not send it again.
    expect(String(answer.headers["set-cookie"])).toMatch(/ragjudge_session=;/);
  }
  const live = await send("127.0.0.6", "/api/v1/session", { headers: { cookie } });
  expect(live.status).toBe(429);
  expect(live.headers["retry-after"]).toBeDefined();
});

it("neither redeems nor counts a login code sent from another site's page", async () => {
  // Ten <img src=".../login?code=…"> on any page: more than the limit, and none of them counts.
  for (let i = 0; i < 10; i++) {
    const site = i % 2 === 0 ? "cross-site" : "same-site";
    const img = await send("127.0.0.4", `/login?code=bogus-${i}`, {
      headers: { "sec-fetch-site": site },
    });
    expect(img.status).toBe(303);
    expect(img.headers.location).toBe("/login?error=link_from_elsewhere");
  }
  // A right code sent by another site logs no one in and is not spent ...
  const code = await createLoginCode(store.db, aliceId);
  const foreign = await send("127.0.0.4", `/login?code=${code}`, {
    headers: { "sec-fetch-site": "cross-site" },
  });
  expect(foreign.headers.location).toBe("/login?error=link_from_elsewhere");
  expect(foreign.headers["set-cookie"]).toBeUndefined();
  // ... so the same link pasted into the address bar (`none`) still works, at this address too.
  const pasted = await send("127.0.0.4", `/login?code=${code}&next=%2Fcollections`, {
    headers: { "sec-fetch-site": "none" },
  });
  expect(pasted.status).toBe(303);
  expect(pasted.headers.location).toBe("/collections");
  expect(String(pasted.headers["set-cookie"])).toMatch(/ragjudge_session=rs_/);
  expect((await tokenLogin("127.0.0.4", aliceToken)).status).toBe(201);
});

it("sends a login link's non-Latin-1 `next` percent-encoded, and logs in", async () => {
  const code = await createLoginCode(store.db, aliceId);
  const next = encodeURIComponent("/evaluations/list?q=票价#结果");
  const link = await send("127.0.0.7", `/login?code=${code}&next=${next}`, {
    headers: { "sec-fetch-site": "none" },
  });
  expect(link.status).toBe(303);
  expect(link.headers.location).toBe("/evaluations/list?q=%E7%A5%A8%E4%BB%B7#%E7%BB%93%E6%9E%9C");
  const cookie = /ragjudge_session=[^;]*/.exec(String(link.headers["set-cookie"]))?.[0] ?? "";
  const me = await send("127.0.0.7", "/api/v1/session", { headers: { cookie } });
  expect(me.status).toBe(200);
});
