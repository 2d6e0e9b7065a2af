// ragjudge/client against a real ragjudge server on 127.0.0.1: batches, retries a busy server
// without storing anything twice, reports refused answers, and sends what is queued at exit.

import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createRecorder, type RecorderError } from "../src/client/index.js";
import { createApp, listen } from "../src/server/index.js";
import {
  createApiToken,
  findOrCreateUser,
  listAnswerFeedback,
  listAnswerRecords,
  type Store,
} from "../src/store/index.js";
import { openTestStore, resetStore } from "./support/stores.js";

const execFileAsync = promisify(execFile);
const ROOT = new URL("../", import.meta.url).pathname;

function answer(message: string) {
  return {
    conversation_id: "client-conv",
    message_id: message,
    retrieval_record: { id: `r-${message}`, query: "When was the bridge built?" },
    retrieval_hits: [
      { node_id: "n1", content: "The bridge was built in 1870 by the river guild." },
    ],
    generation_record: { id: `g-${message}`, model: "m" },
    generation_output: { answer: "The bridge was built in 1870 [n1]." },
  };
}

let store: Store;
let server: Awaited<ReturnType<typeof listen>>;
let token = "";
let userId = "";
/** Requests the server received, by status answered. */
let seen: number[] = [];
/** The next requests to answer 503 instead of passing on. */
let failNext = 0;
let proxy: http.Server;
let proxyUrl = "";

beforeAll(async () => {
  store = await openTestStore("pglite");
  server = await listen(createApp({ db: store.db, maxBodyBytes: 8 * 1024 * 1024 }), { port: 0 });
  // A busy-server stand-in in front of the real one: it answers 503 for the next `failNext`
  // requests, then passes requests through.
  proxy = http.createServer((req, res) => {
    if (failNext > 0) {
      failNext--;
      seen.push(503);
      req.resume();
      res.writeHead(503, { "retry-after": "0", "content-type": "application/json" });
      res.end('{"error":"busy"}');
      return;
    }
    const target = new URL(req.url ?? "/", server.url);
    const forward = http.request(target, { method: req.method, headers: req.headers }, (reply) => {
      seen.push(reply.statusCode ?? 0);
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await server.close();
  await store.close();
});
beforeEach(async () => {
  await resetStore(store);
  userId = (await findOrCreateUser(store.db, "client-user")).id;
  token = await createApiToken(store.db, userId);
  seen = [];
  failNext = 0;
});

it("sends answers in batches and stores each", async () => {
  const recorder = createRecorder({
    url: proxyUrl,
    token,
    batchSize: 100,
    flushIntervalMs: 60_000,
  });
  for (let i = 0; i < 250; i++) recorder.record(answer(`m${i}`));
  const result = await recorder.close();
  expect(result).toEqual({ accepted: 250, duplicates: 0, refused: 0 });
  expect(seen).toEqual([200, 200, 200]);
  expect(await listAnswerRecords(store.db, userId, { limit: 500 })).toHaveLength(250);
});

it("retries a busy server after its Retry-After, and stores nothing twice", async () => {
  failNext = 2;
  const recorder = createRecorder({ url: proxyUrl, token, batchSize: 10 });
  for (let i = 0; i < 10; i++) recorder.record(answer(`m${i}`));
  const result = await recorder.close();
  expect(seen).toEqual([503, 503, 200]);
  expect(result.accepted).toBe(10);
  // Sending the same answers again (a client restarted mid-batch) adds nothing.
  const again = createRecorder({ url: proxyUrl, token, batchSize: 10 });
  for (let i = 0; i < 10; i++) again.record(answer(`m${i}`));
  expect(await again.close()).toEqual({ accepted: 0, duplicates: 10, refused: 0 });
  expect(await listAnswerRecords(store.db, userId, { limit: 50 })).toHaveLength(10);
});

it("reports the answers the server refused, by item and field, and keeps the others", async () => {
  const errors: RecorderError[] = [];
  const recorder = createRecorder({ url: proxyUrl, token, onError: (e) => errors.push(e) });
  recorder.record(answer("ok"));
  recorder.record({ ...answer("bad"), generation_output: undefined } as never);
  expect(await recorder.close()).toEqual({ accepted: 1, duplicates: 0, refused: 1 });
  expect(errors).toEqual([
    {
      kind: "refused",
      message: "the server refused some answers",
      items: [{ item: 2, path: "generation_output", message: expect.any(String) }],
    },
  ]);
});

it("sends feedback after the answer it names, through a busy server, and reports feedback on an unknown answer", async () => {
  const errors: RecorderError[] = [];
  const recorder = createRecorder({
    url: proxyUrl,
    token,
    flushIntervalMs: 60_000,
    onError: (e) => errors.push(e),
  });
  recorder.record(answer("m1"));
  failNext = 1;
  // The answer is still queued: recordFeedback sends it first, then the feedback.
  const stored = await recorder.recordFeedback({
    conversation_id: "client-conv",
    message_id: "m1",
    thumb: "down",
    comment: "wrong year",
  });
  expect(stored).toBe(true);
  expect(seen).toEqual([503, 200, 201]);
  const [record] = await listAnswerRecords(store.db, userId, { limit: 5 });
  const feedback = await listAnswerFeedback(store.db, userId, record?.id ?? "");
  expect(feedback.map((f) => [f.thumb, f.comment])).toEqual([["down", "wrong year"]]);

  const unknown = await recorder.recordFeedback({
    conversation_id: "client-conv",
    message_id: "never-sent",
    thumb: "up",
  });
  expect(unknown).toBe(false);
  expect(errors.map((e) => e.kind)).toEqual(["refused"]);
  expect(errors[0]?.message).toMatch(/404/);
  await recorder.close();
});

it("gives up after its tries and says so, when the server stays busy", async () => {
  failNext = 3;
  const errors: RecorderError[] = [];
  const recorder = createRecorder({
    url: proxyUrl,
    token,
    maxAttempts: 3,
    onError: (e) => errors.push(e),
  });
  recorder.record(answer("m1"));
  expect(await recorder.close()).toEqual({ accepted: 0, duplicates: 0, refused: 1 });
  expect(errors.map((e) => e.kind)).toEqual(["gave_up"]);
});

it("sends what recordAnswer queued when the process is about to exit", async () => {
  const script = `
    import { recordAnswer } from "ragjudge/client";
    recordAnswer(${JSON.stringify(answer("at-exit"))});
    console.log("recorded");
  `;
  const { stdout } = await execFileAsync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    env: { ...process.env, RAGJUDGE_URL: server.url, RAGJUDGE_TOKEN: token },
  });
  expect(stdout).toBe("recorded\n");
  const stored = await listAnswerRecords(store.db, userId, { limit: 5 });
  expect(stored.map((r) => r.message_id)).toEqual(["at-exit"]);
});
