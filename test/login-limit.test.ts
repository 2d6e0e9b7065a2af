// Failed logins are limited per client address (docs/security.md), over real sockets: the
// address is the TCP peer's, so a second loopback address (127.0.0.2) is a second client.

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

  // A session already held keeps working, and another address logs in as before.
  expect((await send("127.0.0.1", "/api/v1/session", { headers: { cookie } })).status).toBe(200);
  expect((await tokenLogin("127.0.0.2", aliceToken)).status).toBe(201);
  const other = await createLoginCode(store.db, aliceId);
  expect((await send("127.0.0.2", `/login?code=${other}`)).status).toBe(303);
});
