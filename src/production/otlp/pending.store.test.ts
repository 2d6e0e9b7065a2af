import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../../test/support/stores.js";
import {
  findOrCreateUser,
  listAnswerRecords,
  listPendingSpans,
  listRejectedTraces,
  queryRows,
  type Store,
} from "../../store/index.js";
import type { Attributes, OtlpSpan } from "./decode.js";
import { createTraceAssembler, TraceBacklogError } from "./pending.js";

let counter = 0;
function span(traceId: string, attributes: Attributes, root = false): OtlpSpan {
  counter += 1;
  return {
    traceId,
    spanId: counter.toString(16).padStart(16, "0"),
    ...(root ? {} : { parentSpanId: "ffffffffffffffff" }),
    name: "span",
    startMs: 0,
    endMs: 10,
    attributes,
    events: [],
    resource: {},
  };
}
const trace = (n: number) => n.toString(16).padStart(32, "0");
const RETRIEVER = {
  "openinference.span.kind": "RETRIEVER",
  "retrieval.documents.0.document.id": "n1",
  "retrieval.documents.0.document.content": "Built in 1870.",
};
const LLM = { "openinference.span.kind": "LLM", "output.value": "Built in 1870 [n1]." };

describe("trace assembler", () => {
  let store: Store;
  let workspaceId = "";
  beforeAll(async () => {
    store = await openTestStore("pglite");
    workspaceId = (await findOrCreateUser(store.db, "pending-alice")).id;
  });
  afterAll(async () => {
    await store?.close();
  });
  // Each assembler resumes every stored pending span: each test starts with none.
  beforeEach(async () => {
    await queryRows(store.db, sql`delete from pending_spans`);
  });

  it("stores a trace as soon as its root, retrieval and LLM spans are in", async () => {
    const assembler = createTraceAssembler({ db: store.db, waitMs: 60_000 });
    const id = trace(1);
    await assembler.add(workspaceId, [span(id, LLM), span(id, RETRIEVER)]);
    expect(assembler.counts()).toMatchObject({ pendingTraces: 1, assembled: 0 });
    await assembler.add(workspaceId, [span(id, {}, true)]);
    expect(assembler.counts()).toMatchObject({ pendingTraces: 0, pendingSpans: 0, assembled: 1 });
    const rows = await listAnswerRecords(store.db, workspaceId, { limit: 10 });
    expect(rows.filter((r) => r.trace_id === id)).toHaveLength(1);
    // A straggler of the stored trace does not come back as a trace of its own.
    await assembler.add(workspaceId, [span(id, { "gen_ai.operation.name": "embeddings" })]);
    expect(assembler.counts().pendingTraces).toBe(0);
    assembler.stop();
  });

  it("waits waitMs after a trace's last span, then stores what it has, rejected with its reason", async () => {
    let now = 0;
    const assembler = createTraceAssembler({ db: store.db, waitMs: 1_000, clock: () => now });
    const id = trace(2);
    await assembler.add(workspaceId, [span(id, LLM, true)]);
    now = 999;
    await assembler.flushDue();
    expect(assembler.counts().pendingTraces).toBe(1);
    now = 1_000;
    await assembler.flushDue();
    expect(assembler.counts()).toMatchObject({ pendingTraces: 0, rejected: 1 });
    const [row] = (await listRejectedTraces(store.db, workspaceId, 10)).filter(
      (r) => r.trace_id === id,
    );
    expect(row?.reason).toMatch(/^No retrieval span/);
    assembler.stop();
  });

  it("refuses spans past maxPendingSpans with a retry-after, and past maxSpansPerTrace by count", async () => {
    const assembler = createTraceAssembler({
      db: store.db,
      waitMs: 60_000,
      maxPendingSpans: 3,
      maxSpansPerTrace: 2,
    });
    const id = trace(3);
    expect(await assembler.add(workspaceId, [span(id, {}), span(id, {}), span(id, {})])).toEqual({
      rejectedSpans: 1,
      reasons: [expect.stringMatching(/limit maxSpansPerTrace/)],
    });
    const error = await assembler
      .add(workspaceId, [span(trace(4), {}), span(trace(4), {})])
      .catch((e) => e);
    expect(TraceBacklogError.isInstance(error)).toBe(true);
    expect((error as TraceBacklogError).retryAfterSeconds).toBe(60);
    assembler.stop();
  });

  it("keeps a trace whose store failed, to be tried again", async () => {
    const assembler = createTraceAssembler({ db: store.db, waitMs: 60_000 });
    const id = trace(5);
    // A user that does not exist: the insert fails as an unreachable database would.
    const nobody = "00000000-0000-4000-8000-000000000000";
    await expect(
      assembler.add(nobody, [span(id, {}, true), span(id, RETRIEVER), span(id, LLM)]),
    ).rejects.toThrow();
    expect(assembler.counts()).toMatchObject({ pendingTraces: 1, pendingSpans: 3, assembled: 0 });
    assembler.stop();
  });

  it("stores the spans of an unfinished trace before answering, and a new process resumes them", async () => {
    const first = createTraceAssembler({ db: store.db, waitMs: 60_000 });
    const id = trace(6);
    const done = trace(7);
    await first.add(workspaceId, [span(id, {}, true), span(id, LLM)]);
    // A trace complete within its request is never written there.
    await first.add(workspaceId, [span(done, {}, true), span(done, RETRIEVER), span(done, LLM)]);
    const waiting = async () => (await listPendingSpans(store.db)).filter((r) => r.traceId === id);
    expect(await waiting()).toHaveLength(2);
    expect((await listPendingSpans(store.db)).some((r) => r.traceId === done)).toBe(false);
    first.stop(); // as a process that died: nothing else is written

    const second = createTraceAssembler({ db: store.db, waitMs: 60_000 });
    await second.resumed();
    expect(second.counts()).toMatchObject({ pendingTraces: 1, pendingSpans: 2 });
    await second.add(workspaceId, [span(id, RETRIEVER)]);
    expect(second.counts()).toMatchObject({ pendingTraces: 0, assembled: 1 });
    const rows = await listAnswerRecords(store.db, workspaceId, { limit: 50 });
    expect(rows.filter((r) => r.trace_id === id)).toHaveLength(1);
    expect(await waiting()).toEqual([]);
    second.stop();
  });
});
