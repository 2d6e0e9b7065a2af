import { expect, it } from "vitest";
import { describeEachStore } from "../../test/support/stores.js";
import {
  getEvaluationRecord,
  insertEvaluationRecords,
  listEvaluationRecords,
  type NewEvaluationRecordRow,
} from "./evaluation-records.js";
import { findOrCreateUser } from "./users.js";

function row(workspaceId: string, messageId: string): NewEvaluationRecordRow {
  return {
    workspace_id: workspaceId,
    conversation_id: "c1",
    message_id: messageId,
    retrieval_record_id: "r1",
    generation_record_id: "g1",
    status: "pass",
    action: "show",
    rule_version: "gate-1+abc",
    config: { checks: {} },
    checks: [{ name: "require_citations", status: "pass", detail: {} }],
    scores: { citation_coverage: 1 },
    meta: { trace_id: "t1" },
    input: { answer: "x" },
    check_count: 1,
  };
}

describeEachStore("evaluation records", (use) => {
  it("stores a batch and reads each record back whole", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const written = await insertEvaluationRecords(db, [row(alice.id, "m1"), row(alice.id, "m2")]);
    expect(written).toHaveLength(2);
    const second = await getEvaluationRecord(db, alice.id, written[1]?.id ?? "");
    expect(second?.message_id).toBe("m2");
    const read = await getEvaluationRecord(db, alice.id, written[0]?.id ?? "");
    expect(read).toMatchObject({
      message_id: "m1",
      scores: { citation_coverage: 1 },
      checks: [{ name: "require_citations", status: "pass", detail: {} }],
    });
  });

  it("answers another user's record as missing", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bob = await findOrCreateUser(db, "bob");
    const [record] = await insertEvaluationRecords(db, [row(alice.id, "m1")]);
    expect(record).toBeDefined();
    expect(await getEvaluationRecord(db, bob.id, record?.id ?? "")).toBeUndefined();
    expect(await getEvaluationRecord(db, alice.id, "not-a-uuid")).toBeUndefined();
  });

  it("writes nothing of a batch with one invalid row", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bad = { ...row(alice.id, "m2"), workspace_id: "00000000-0000-0000-0000-000000000000" };
    await expect(insertEvaluationRecords(db, [row(alice.id, "m1"), bad])).rejects.toThrow();
    expect(await listEvaluationRecords(db, alice.id)).toEqual([]);
  });

  it("lists newest first, one user's records only, with a cursor", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bob = await findOrCreateUser(db, "bob");
    await insertEvaluationRecords(db, [
      row(alice.id, "m1"),
      row(alice.id, "m2"),
      row(bob.id, "b1"),
    ]);
    const page = await listEvaluationRecords(db, alice.id, { limit: 1 });
    expect(page.map((r) => r.message_id)).toEqual(["m2"]);
    const next = await listEvaluationRecords(db, alice.id, { beforeSeq: page[0]?.seq ?? 0 });
    expect(next.map((r) => r.message_id)).toEqual(["m1"]);
  });
});
