import { beforeAll, beforeEach, expect, it } from "vitest";
import { ingestAnswers, startAnswerRetention } from "../src/production/index.js";
import { createApp } from "../src/server/index.js";
import {
  createApiToken,
  dropAnswerDaysBefore,
  findOrCreateUser,
  listAnswerRecords,
  queryRows,
} from "../src/store/index.js";
import { sql } from "drizzle-orm";
import { describeEachStore } from "./support/stores.js";

const HIT = "The Lanting bridge was built in 1870 by the river guild. Tickets cost 12 yuan.";

function answer(message: string, text: string, extra: Record<string, unknown> = {}) {
  return {
    conversation_id: "conv-1",
    message_id: message,
    retrieval_record: { id: `r-${message}`, query: "When was the bridge built?" },
    retrieval_hits: [{ node_id: "n1", content: HIT }],
    generation_record: { id: `g-${message}`, model: "gpt-4o-mini" },
    generation_output: { answer: text, citations: [{ node_id: "n1" }] },
    ...extra,
  };
}
const GOOD = "The Lanting bridge was built in 1870 by the river guild [n1].";
const WRONG = "The Lanting bridge was built in 1875 by the river guild [n1].";

interface BatchResult {
  accepted: number;
  duplicates: number;
  rejected: number;
  answers: { item: number; id: string; duplicate: boolean; gate: { status: string } }[];
  errors: { item: number; path: string; message: string }[];
}

describeEachStore("production answers API", (use) => {
  let app: ReturnType<typeof createApp>;
  let alice = "";
  let bob = "";
  let aliceId = "";

  beforeAll(() => {
    app = createApp({ db: use().db, maxBodyBytes: 4 * 1024 * 1024 });
  });
  beforeEach(async () => {
    const { db } = use();
    aliceId = (await findOrCreateUser(db, "answers-alice")).id;
    alice = await createApiToken(db, aliceId);
    bob = await createApiToken(db, (await findOrCreateUser(db, "answers-bob")).id);
  });

  const call = (path: string, token: string, json?: unknown) =>
    app.request(path, {
      method: json === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });

  it("gates and stores each valid answer, names each bad one by item and field, keeps the rest", async () => {
    const bad = answer("m2", GOOD) as Record<string, unknown>;
    delete bad.generation_output;
    const response = await call("/api/v1/answers", alice, {
      answers: [
        answer("m1", GOOD, {
          latency_ms: 840,
          usage: { prompt_tokens: 900, completion_tokens: 40 },
        }),
        bad,
        answer("m3", WRONG, { metadata: { tenant: "acme" }, service: "support-bot" }),
      ],
    });
    expect(response.status).toBe(200);
    const result = (await response.json()) as BatchResult;
    expect(result).toMatchObject({ accepted: 2, duplicates: 0, rejected: 1 });
    expect(result.answers.map((a) => [a.item, a.gate.status])).toEqual([
      [1, "pass"],
      [3, "fail"],
    ]);
    expect(result.errors).toEqual([
      { item: 2, path: "generation_output", message: expect.any(String) },
    ]);

    const stored = (await (
      await call(`/api/v1/answers/${result.answers[1]?.id}`, alice)
    ).json()) as {
      gate: { status: string; checks: { name: string; status: string }[] };
      service: string;
      metadata: Record<string, unknown>;
      answer: string;
    };
    expect(stored).toMatchObject({
      service: "support-bot",
      metadata: { tenant: "acme" },
      answer: WRONG,
    });
    expect(stored.gate.checks.find((c) => c.name === "numeric_consistency")?.status).toBe("fail");
    expect((await call(`/api/v1/answers/${result.answers[1]?.id}`, bob)).status).toBe(404);
  });

  it("stores an answer once however often it is sent, in a batch or again later", async () => {
    const first = (await (
      await call("/api/v1/answers", alice, { answers: [answer("m1", GOOD), answer("m1", GOOD)] })
    ).json()) as BatchResult;
    expect(first).toMatchObject({ accepted: 1, duplicates: 1 });
    expect(first.answers[1]?.id).toBe(first.answers[0]?.id);
    const again = (await (
      await call("/api/v1/answers", alice, { answers: [answer("m1", GOOD)] })
    ).json()) as BatchResult;
    expect(again).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(again.answers[0]?.id).toBe(first.answers[0]?.id);
    // Another user's same ids are their own answer.
    const other = (await (
      await call("/api/v1/answers", bob, { answers: [answer("m1", GOOD)] })
    ).json()) as BatchResult;
    expect(other).toMatchObject({ accepted: 1, duplicates: 0 });
  });

  it("reads JSON Lines, naming a bad line by its number", async () => {
    const jsonl = [
      JSON.stringify(answer("m1", GOOD)),
      "{not json",
      JSON.stringify(answer("m3", GOOD)),
    ].join("\n");
    const result = (await (await call("/api/v1/answers", alice, { jsonl })).json()) as BatchResult;
    expect(result).toMatchObject({ accepted: 2, rejected: 1 });
    expect(result.errors.map((e) => e.item)).toEqual([2]);
  });

  it("refuses a batch with no valid answer, and a body with both forms", async () => {
    const none = await call("/api/v1/answers", alice, { answers: [{ message_id: "x" }] });
    expect(none.status).toBe(400);
    expect(JSON.stringify(await none.json())).toContain("item 1: conversation_id");
    const both = await call("/api/v1/answers", alice, { answers: [], jsonl: "" });
    expect(both.status).toBe(400);
  });

  it("lists answers newest first, a page at a time, filtered by gate verdict", async () => {
    const { db } = use();
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, minute));
    for (let i = 0; i < 5; i++) {
      await ingestAnswers([answer(`m${i}`, i % 2 ? WRONG : GOOD) as never], {
        db,
        workspaceId: aliceId,
        source: "api",
        now: at(i),
      });
    }
    const page1 = (await (await call("/api/v1/answers?limit=2", alice)).json()) as {
      items: { message_id: string }[];
      next_before: string;
    };
    expect(page1.items.map((a) => a.message_id)).toEqual(["m4", "m3"]);
    const page2 = (await (
      await call(`/api/v1/answers?limit=2&before=${encodeURIComponent(page1.next_before)}`, alice)
    ).json()) as { items: { message_id: string }[] };
    expect(page2.items.map((a) => a.message_id)).toEqual(["m2", "m1"]);
    const failed = (await (await call("/api/v1/answers?gate=fail", alice)).json()) as {
      items: { message_id: string }[];
    };
    expect(failed.items.map((a) => a.message_id)).toEqual(["m3", "m1"]);
    expect((await call("/api/v1/answers?gate=maybe", alice)).status).toBe(400);
    expect((await call("/api/v1/answers?before=nonsense", alice)).status).toBe(400);
    expect(
      ((await (await call("/api/v1/answers", bob)).json()) as { items: unknown[] }).items,
    ).toEqual([]);
  });

  it("stores each day in its own partition and drops whole days past retention", async () => {
    const { db } = use();
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 12));
    for (const d of [24, 25, 26]) {
      await ingestAnswers([answer(`day-${d}`, GOOD) as never], {
        db,
        workspaceId: aliceId,
        source: "api",
        now: day(d),
      });
    }
    const partitions = async () =>
      (
        await queryRows<{ name: string }>(
          db,
          sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
              join pg_class p on p.oid = i.inhparent where p.relname = 'answer_records' order by 1`,
        )
      ).map((r) => r.name);
    expect(await partitions()).toEqual(
      expect.arrayContaining(["answer_records_p20261124", "answer_records_p20261126"]),
    );
    expect(await dropAnswerDaysBefore(db, day(26))).toEqual(
      expect.arrayContaining(["2026-11-24", "2026-11-25"]),
    );
    expect(await partitions()).not.toContain("answer_records_p20261125");
    const left = await listAnswerRecords(db, aliceId, { limit: 10 });
    expect(left.map((r) => r.message_id)).toEqual(["day-26"]);
    expect(await dropAnswerDaysBefore(db, day(26))).toEqual([]);
    // Retention keeps `retention_days` whole days, today included.
    await ingestAnswers([answer("day-27", GOOD) as never], {
      db,
      workspaceId: aliceId,
      source: "api",
      now: day(27),
    });
    const retention = startAnswerRetention({ db, retentionDays: 1, clock: () => day(27) });
    retention.stop();
    expect(await retention.first).toEqual(["2026-11-26"]);
    // The dropped days' keys went with them: the same answer is new again.
    const [again] = await ingestAnswers([answer("day-24", GOOD) as never], {
      db,
      workspaceId: aliceId,
      source: "api",
      now: day(26),
    });
    expect(again?.duplicate).toBe(false);
  });
});
