// Live progress streams under load (issue 22 §3): the streams on one run share one poller, a
// paused run is not read every 500 ms, and a user's open streams are capped (429). Queries are
// counted on the store's own handle (`select` calls), never inferred from elapsed time.

import { afterEach, expect, it } from "vitest";
import { createApp, listen } from "../src/server/index.js";
import {
  createApiToken,
  createEvaluation,
  type Db,
  type EvaluationStatus,
  findOrCreateUser,
  transitionEvaluation,
} from "../src/store/index.js";
import { type OpenStream, openStream } from "./support/event-stream.js";
import { describeEachStore } from "./support/stores.js";

/** The store's handle, counting the `select` statements made through it. */
function countingDb(db: Db) {
  const counter = { selects: 0 };
  const counted = new Proxy(db, {
    get(target, property, receiver) {
      if (property === "select") counter.selects += 1;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { db: counted, counter };
}

describeEachStore("live progress streams", (use) => {
  const servers: Array<{ close(): Promise<void> }> = [];
  const streams: OpenStream[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    for (const server of servers.splice(0)) await server.close();
  });

  async function serve(options: Omit<Parameters<typeof createApp>[0], "db"> = {}) {
    const { db, counter } = countingDb(use().db);
    const server = await listen(createApp({ db, webDir: false, ...options }), { port: 0 });
    servers.push(server);
    const open = async (id: string, token: string) => {
      const stream = await openStream(`${server.url}/api/v1/evaluations/${id}/events`, token);
      streams.push(stream);
      return stream;
    };
    return { counter, open, url: server.url };
  }

  async function userOf(name: string) {
    const user = await findOrCreateUser(use().db, name);
    return { id: user.id, token: await createApiToken(use().db, user.id) };
  }

  /** A run of two questions no worker takes, moved to `status`. */
  async function runIn(workspaceId: string, status: EvaluationStatus) {
    const db = use().db;
    const run = await createEvaluation(db, workspaceId, {
      user_id: workspaceId,
      name: "followed",
      bot_id: "builtin",
      judge_llm_model_id: "offline",
      config: {},
      questions: ["a", "b"].map((id) => ({
        question_id: id,
        question_type: "FACTUAL",
        question_text: `question ${id}?`,
        ground_truth: "",
      })),
    });
    if (status !== "PENDING") await transitionEvaluation(db, run.id, ["PENDING"], status);
    return run;
  }

  const started = (stream: OpenStream) =>
    expect.poll(() => stream.events[0]?.event, { timeout: 10_000 }).toBe("progress");

  it("feeds every stream on a run from one poller, not one each", async () => {
    const { counter, open } = await serve();
    const alice = await userOf("alice");
    const run = await runIn(alice.id, "RUNNING");
    const N = 20;
    const opened = await Promise.all(Array.from({ length: N }, () => open(run.id, alice.token)));
    for (const stream of opened) await started(stream);

    // Another process ends the run; each stream must see it and end.
    const before = counter.selects;
    await transitionEvaluation(use().db, run.id, ["RUNNING"], "CANCELLED");
    await Promise.all(opened.map((stream) => stream.ended));
    for (const stream of opened) {
      expect(stream.events.at(-1)).toEqual({ event: "end", data: { status: "CANCELLED" } });
    }
    // One poller reads the run and its results (2 selects) per 500 ms until it sees the change;
    // a poller per stream made at least 2 × N. Fewer than N leaves room for several polls on a
    // loaded machine.
    expect(counter.selects - before).toBeLessThan(N);
  });

  it("reads a paused run rarely, and at once when it is cancelled through this server", async () => {
    const paused = await serve();
    const clock = await serve();
    const alice = await userOf("alice");
    const run = await runIn(alice.id, "PAUSED");
    const stream = await paused.open(run.id, alice.token);
    await started(stream);
    expect(stream.events[0]?.data).toMatchObject({ status: "PAUSED" });
    const ticking = await clock.open((await runIn(alice.id, "RUNNING")).id, alice.token);
    await started(ticking);

    // The running run's poller is the clock: 4 of its polls (8 selects) take about 2 s, a
    // fifth of the paused poller's 10 s; a 500 ms poller would have read the paused run 4 times.
    const pausedBefore = paused.counter.selects;
    const clockBefore = clock.counter.selects;
    await expect
      .poll(() => clock.counter.selects - clockBefore, { timeout: 8_000 })
      .toBeGreaterThanOrEqual(8);
    expect(paused.counter.selects - pausedBefore).toBe(0);

    // Cancelled through this server, the run is read at once, not at the poller's next (10 s)
    // read: the stream ends well before it.
    const cancel = await fetch(`${paused.url}/api/v1/evaluations/${run.id}/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(cancel.status).toBe(200);
    await expect
      .poll(() => stream.events.at(-1), { timeout: 5_000 })
      .toEqual({ event: "end", data: { status: "CANCELLED" } });
  });

  it("refuses a user's streams beyond the cap with 429, and frees a place when one closes", async () => {
    const { open } = await serve({ streams: { perUser: 2 } });
    const alice = await userOf("alice");
    const bob = await userOf("bob");
    const run = await runIn(alice.id, "RUNNING");
    const first = await open(run.id, alice.token);
    const second = await open(run.id, alice.token);
    await started(first);
    await started(second);

    const third = await open(run.id, alice.token);
    expect(third.status).toBe(429);
    expect(third.refusal).toEqual({
      error: "too_many_streams",
      message: expect.stringMatching(/already have 2 live progress streams open/) as unknown,
    });
    // The cap is per user: another user's stream opens.
    const bobs = await open((await runIn(bob.id, "RUNNING")).id, bob.token);
    expect(bobs.status).toBe(200);

    // A closed stream frees its place once the server sees the socket go.
    first.close();
    await expect
      .poll(
        async () => {
          const again = await open(run.id, alice.token);
          again.close();
          return again.status;
        },
        { timeout: 10_000 },
      )
      .toBe(200);
  });
});
