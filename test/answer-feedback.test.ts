// Feedback on production answers (issue 24 §2), on both stores: a thumb, a score or a comment,
// validated field by field, shown with the answer and summed in the list, scoped to its user,
// sendable with an ingest key, filterable, and dropped with its answer's day by retention.

import { beforeAll, beforeEach, expect, it } from "vitest";
import { ingestAnswers } from "../src/production/index.js";
import { createApp } from "../src/server/index.js";
import {
  createApiToken,
  createIngestKey,
  dropAnswerDaysBefore,
  findOrCreateUser,
  listAnswerFeedback,
} from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

const HIT = "The Lanting bridge was built in 1870 by the river guild. Tickets cost 12 yuan.";

function answer(message: string, extra: Record<string, unknown> = {}) {
  return {
    conversation_id: "conv-f",
    message_id: message,
    retrieval_record: { id: `r-${message}`, query: "When was the bridge built?" },
    retrieval_hits: [{ node_id: "n1", content: HIT }],
    generation_record: { id: `g-${message}`, model: "gpt-4o-mini" },
    generation_output: { answer: "It was built in 1870 [n1].", citations: [{ node_id: "n1" }] },
    ...extra,
  };
}

interface Page {
  items: { message_id: string; feedback: { count: number; up: number; down: number } }[];
}

describeEachStore("feedback on production answers", (use) => {
  let app: ReturnType<typeof createApp>;
  let alice = "";
  let bob = "";
  let aliceId = "";
  let answerId = "";

  beforeAll(() => {
    app = createApp({ db: use().db });
  });
  beforeEach(async () => {
    const { db } = use();
    aliceId = (await findOrCreateUser(db, "feedback-alice")).id;
    alice = await createApiToken(db, aliceId);
    bob = await createApiToken(db, (await findOrCreateUser(db, "feedback-bob")).id);
    const [stored] = await ingestAnswers([answer("m1") as never], {
      db,
      workspaceId: aliceId,
      source: "api",
      now: new Date(Date.UTC(2026, 10, 26, 9)),
    });
    answerId = stored?.id ?? "";
  });

  const call = (path: string, token: string, json?: unknown) =>
    app.request(path, {
      method: json === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });

  it("stores a thumb, a score and a comment, and returns them with the answer, oldest first", async () => {
    const first = await call(`/api/v1/answers/${answerId}/feedback`, alice, { thumb: "down" });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ answer_id: answerId, thumb: "down", score: null });
    const second = await call(`/api/v1/answers/${answerId}/feedback`, alice, {
      score: 0.25,
      comment: "  The year is right but the guild is wrong.  ",
    });
    expect(second.status).toBe(201);
    const read = (await (await call(`/api/v1/answers/${answerId}`, alice)).json()) as {
      feedback: { thumb: string | null; score: number | null; comment: string | null }[];
    };
    expect(read.feedback.map((f) => [f.thumb, f.score, f.comment])).toEqual([
      ["down", null, null],
      [null, 0.25, "The year is right but the guild is wrong."],
    ]);
  });

  it("names the field at fault, and refuses feedback that says nothing", async () => {
    const cases: [unknown, string][] = [
      [{ thumb: "sideways" }, "thumb"],
      [{ score: 1.5 }, "score"],
      [{ comment: "x".repeat(4001) }, "comment"],
      [{ stars: 5 }, "(root)"], // an unknown key: the message names it
      [{}, "thumb"],
    ];
    for (const [body, field] of cases) {
      const response = await call(`/api/v1/answers/${answerId}/feedback`, alice, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const { issues } = (await response.json()) as { issues: { path: string }[] };
      expect(issues.map((i) => i.path)).toContain(field);
    }
    expect(await listAnswerFeedback(use().db, aliceId, answerId)).toEqual([]);
  });

  it("treats another user's answer as missing", async () => {
    const response = await call(`/api/v1/answers/${answerId}/feedback`, bob, { thumb: "up" });
    expect(response.status).toBe(404);
    const byKey = await call("/api/v1/answers/feedback", bob, {
      conversation_id: "conv-f",
      message_id: "m1",
      thumb: "up",
    });
    expect(byKey.status).toBe(404);
    expect(await listAnswerFeedback(use().db, aliceId, answerId)).toEqual([]);
  });

  it("takes feedback from an ingest key, by answer id or by the app's own ids, and lets it read nothing", async () => {
    const { key } = await createIngestKey(
      use().db,
      { workspaceId: aliceId, userId: aliceId },
      "support-bot",
    );
    expect((await call(`/api/v1/answers/${answerId}/feedback`, key, { thumb: "up" })).status).toBe(
      201,
    );
    const byKey = await call("/api/v1/answers/feedback", key, {
      conversation_id: "conv-f",
      message_id: "m1",
      thumb: "down",
    });
    expect(byKey.status).toBe(201);
    expect((await call(`/api/v1/answers/${answerId}`, key)).status).toBe(403);
    expect(
      (await listAnswerFeedback(use().db, aliceId, answerId)).map((f) => f.thumb).sort(),
    ).toEqual(["down", "up"]);
  });

  it("sums feedback in the list and filters by it, by service, model and time", async () => {
    const { db } = use();
    await ingestAnswers(
      [
        answer("m2", { service: "billing", generation_record: { id: "g2", model: "qwen" } }),
      ] as never,
      { db, workspaceId: aliceId, source: "api", now: new Date(Date.UTC(2026, 10, 26, 11)) },
    );
    await call(`/api/v1/answers/${answerId}/feedback`, alice, { thumb: "up" });
    await call(`/api/v1/answers/${answerId}/feedback`, alice, { thumb: "down" });
    await call(`/api/v1/answers/${answerId}/feedback`, alice, { comment: "slow" });
    const ids = async (query: string) =>
      ((await (await call(`/api/v1/answers?${query}`, alice)).json()) as Page).items.map(
        (a) => a.message_id,
      );
    const all = (await (await call("/api/v1/answers", alice)).json()) as Page;
    expect(all.items.map((a) => [a.message_id, a.feedback])).toEqual([
      ["m2", { count: 0, up: 0, down: 0 }],
      ["m1", { count: 3, up: 1, down: 1 }],
    ]);
    expect(await ids("feedback=any")).toEqual(["m1"]);
    expect(await ids("feedback=none")).toEqual(["m2"]);
    expect(await ids("service=billing")).toEqual(["m2"]);
    expect(await ids("model=gpt-4o-mini")).toEqual(["m1"]);
    expect(await ids("from=2026-11-26T10:00:00Z")).toEqual(["m2"]);
    expect(await ids("to=2026-11-26T10:00:00Z")).toEqual(["m1"]);
    expect((await call("/api/v1/answers?from=yesterday", alice)).status).toBe(400);
    expect((await call("/api/v1/answers?feedback=maybe", alice)).status).toBe(400);
  });

  it("drops an answer's feedback with its day", async () => {
    const { db } = use();
    await call(`/api/v1/answers/${answerId}/feedback`, alice, { thumb: "up" });
    expect(await listAnswerFeedback(db, aliceId, answerId)).toHaveLength(1);
    await dropAnswerDaysBefore(db, new Date(Date.UTC(2026, 10, 27, 0)));
    expect(await listAnswerFeedback(db, aliceId, answerId)).toEqual([]);
  });
});
