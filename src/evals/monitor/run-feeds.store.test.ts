import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore } from "../../../test/support/stores.js";
import {
  createEvaluation,
  findOrCreateUser,
  type Store,
  transitionEvaluation,
} from "../../store/index.js";
import { createRunFeeds, type FeedMessage } from "./run-feeds.js";

let store: Store;
beforeAll(async () => {
  store = await openTestStore("pglite");
});
afterAll(async () => {
  await store?.close();
});

async function runningRun(name: string) {
  const user = await findOrCreateUser(store.db, name);
  const run = await createEvaluation(store.db, user.id, {
    user_id: user.id,
    name: "followed",
    bot_id: "builtin",
    judge_llm_model_id: "offline",
    config: {},
    questions: [
      { question_id: "q", question_type: "FACTUAL", question_text: "q?", ground_truth: "" },
    ],
  });
  const row = await transitionEvaluation(store.db, run.id, ["PENDING"], "RUNNING");
  if (!row) throw new Error("run did not start");
  return { user, row };
}

describe("createRunFeeds", () => {
  it("starts one poller per run for all its listeners, and stops it with the last", async () => {
    // An hour between polls: only pokes read the run here, so each read is the test's doing.
    const feeds = createRunFeeds(store.db, { intervalMs: 3_600_000 });
    const { user, row } = await runningRun("feeds-a");
    const heard: FeedMessage[][] = [[], [], []];
    const listeners = heard.map((inbox) => feeds.listen(user.id, row, (m) => inbox.push(m)));
    expect(feeds.stats()).toEqual({ pollers: 1, listeners: 3, polls: 0 });

    feeds.poke(user.id, row.id);
    await expect.poll(() => heard.map((inbox) => inbox.length)).toEqual([1, 1, 1]);
    expect(feeds.stats().polls).toBe(1);
    expect(heard[0]?.[0]).toMatchObject({ kind: "tick", tick: { seq: 1, row: { id: row.id } } });

    for (const listener of listeners) listener.stop();
    expect(feeds.stats()).toEqual({ pollers: 0, listeners: 0, polls: 1 });
  });

  it("ends with the run: the tick that sees it final is the last", async () => {
    const feeds = createRunFeeds(store.db, { intervalMs: 3_600_000 });
    const { user, row } = await runningRun("feeds-b");
    const inbox: FeedMessage[] = [];
    feeds.listen(user.id, row, (m) => inbox.push(m));
    await transitionEvaluation(store.db, row.id, ["RUNNING"], "CANCELLED");
    feeds.poke(user.id, row.id);
    await expect.poll(() => inbox.length).toBe(1);
    expect(inbox[0]).toMatchObject({ kind: "tick", tick: { row: { status: "CANCELLED" } } });
    expect(feeds.stats().pollers).toBe(0);
  });

  it("tells its listeners and its error hook once when a read fails, then stops", async () => {
    const own = await openTestStore("pglite");
    const errors: unknown[] = [];
    const feeds = createRunFeeds(own.db, {
      intervalMs: 3_600_000,
      onError: (error) => errors.push(error),
    });
    const user = await findOrCreateUser(own.db, "feeds-c");
    const run = await createEvaluation(own.db, user.id, {
      user_id: user.id,
      name: "followed",
      bot_id: "builtin",
      judge_llm_model_id: "offline",
      config: {},
      questions: [],
    });
    const inboxes: FeedMessage[][] = [[], []];
    for (const inbox of inboxes) feeds.listen(user.id, run, (m) => inbox.push(m));
    await own.close();
    feeds.poke(user.id, run.id);
    await expect.poll(() => inboxes.map((inbox) => inbox.length)).toEqual([1, 1]);
    expect(inboxes.flat()).toEqual([{ kind: "failed" }, { kind: "failed" }]);
    expect(errors).toHaveLength(1);
    expect(feeds.stats().pollers).toBe(0);
  });
});
