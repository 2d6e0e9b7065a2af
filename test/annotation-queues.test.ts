import { expect, it } from "vitest";
import { calibrateEvaluation, krippendorffAlpha } from "../src/evals/calibration/index.js";
import { nextItem, saveLabels } from "../src/evals/queues/index.js";
import { createApp } from "../src/server/index.js";
import {
  acceptInvitation,
  createApiToken,
  createInvitation,
  createWorkspace,
  type Db,
  findOrCreateUser,
  listHumanLabels,
  type User,
  type WorkspaceRole,
} from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";
import { type StoredItem, storeFinishedRun } from "./support/stored-run.js";

// Annotation queues (issue 28 §2) through the API on both stores: made from a run, reviewed blind
// by three people with slots and locks, their agreement, adjudication into calibration.

const ITEMS: StoredItem[] = Array.from({ length: 6 }, (_, i) => ({
  question: `Question ${i}?`,
  answer: `Answer ${i}.`,
  judge: { raw: [9, 8, 3, 6, 2, 7][i] as number, passed: i % 2 === 0 },
  sources: [{ node_id: `n${i}`, content: `Context ${i}.` }],
}));

async function member(db: Db, workspaceId: string, owner: User, name: string, role: WorkspaceRole) {
  const user = await findOrCreateUser(db, name);
  const invitation = await createInvitation(db, {
    workspaceId,
    role,
    invitedBy: owner.id,
    ttlMs: 60_000,
  });
  await acceptInvitation(db, invitation.code, user.id);
  return { user, token: await createApiToken(db, user.id, "", workspaceId) };
}

interface Json {
  [key: string]: unknown;
}

describeEachStore("annotation queues", (use) => {
  const setup = async () => {
    const db = use().db;
    const alice = await findOrCreateUser(db, "alice");
    const team = await createWorkspace(db, alice.id, "team");
    const owner = { user: alice, token: await createApiToken(db, alice.id, "", team.id) };
    const bob = await member(db, team.id, alice, "bob", "annotator");
    const carol = await member(db, team.id, alice, "carol", "annotator");
    const erin = await member(db, team.id, alice, "erin", "annotator");
    const dave = await member(db, team.id, alice, "dave", "viewer");
    const mallory = await findOrCreateUser(db, "mallory");
    const outsider = { user: mallory, token: await createApiToken(db, mallory.id) };
    const run = await storeFinishedRun(db, team.id, ITEMS, "rubric", alice.id);
    const foreignRun = await storeFinishedRun(db, mallory.id, ITEMS);
    const app = createApp({ db, validateResponses: true });
    const call = async (token: string, method: string, path: string, body?: unknown) => {
      const response = await app.request(`/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
    };
    return { db, team, owner, bob, carol, erin, dave, outsider, run, foreignRun, call };
  };

  it("hands out items blind, N reviewers per item, and shows the verdict only after a save", async () => {
    const { owner, bob, carol, erin, dave, outsider, run, foreignRun, call } = await setup();
    const request = {
      name: "golden set",
      source: { kind: "run", evaluation_id: run.id },
      reviewers: [bob.user.id, carol.user.id],
      reviewers_per_item: 2,
    };
    // Who may make a queue, from what.
    expect((await call(bob.token, "POST", "/queues", request)).status).toBe(403);
    const foreign = await call(owner.token, "POST", "/queues", {
      ...request,
      source: { kind: "run", evaluation_id: foreignRun.id },
    });
    expect(foreign.status).toBe(404);
    const tooLong = await call(owner.token, "POST", "/queues", {
      ...request,
      name: "x".repeat(201),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.issues).toEqual([expect.objectContaining({ path: "name" })]);
    const viewer = await call(owner.token, "POST", "/queues", {
      ...request,
      reviewers: [dave.user.id],
      reviewers_per_item: 1,
    });
    expect(viewer.body.issues).toEqual([{ path: "reviewers.0", message: "a viewer cannot label" }]);
    const three = await call(owner.token, "POST", "/queues", { ...request, reviewers_per_item: 3 });
    expect(three.body.issues).toEqual([expect.objectContaining({ path: "reviewers_per_item" })]);

    const made = await call(owner.token, "POST", "/queues", request);
    expect(made.status).toBe(201);
    const queue = made.body as { id: string; items: number; rubric: Json };
    expect(queue.items).toBe(6);
    expect(queue.rubric).toEqual({
      kind: "judge_scale",
      judge: "rubric",
      criteria: [{ name: "rubric", scale: "1-10", description: "" }],
    });

    // Another workspace's caller, a viewer, an annotator not assigned: no queue to review.
    expect((await call(outsider.token, "GET", `/queues/${queue.id}`)).status).toBe(404);
    expect((await call(outsider.token, "POST", `/queues/${queue.id}/next`)).status).toBe(404);
    expect((await call(dave.token, "POST", `/queues/${queue.id}/next`)).status).toBe(403);
    expect((await call(erin.token, "POST", `/queues/${queue.id}/next`)).status).toBe(404);
    expect(((await call(erin.token, "GET", "/queues")).body.items as unknown[]).length).toBe(0);
    // An annotator reads no run and no verdict.
    expect((await call(bob.token, "GET", `/queues/${queue.id}/items`)).status).toBe(403);
    expect((await call(bob.token, "GET", `/evaluations/${run.id}`)).status).toBe(403);

    const first = await call(bob.token, "POST", `/queues/${queue.id}/next`);
    expect(first.status).toBe(200);
    const item = first.body.item as { id: string; position: number; content: Json };
    expect(item.position).toBe(0);
    expect(item.content).toMatchObject({ question: "Question 0?", contexts: ["Context 0."] });
    expect(JSON.stringify(first.body)).not.toContain("raw_score");
    // Asking again hands back the item held, not another.
    expect(((await call(bob.token, "POST", `/queues/${queue.id}/next`)).body.item as Json).id).toBe(
      item.id,
    );
    // Carol gets the same item (two per item); the owner, not assigned but an owner, the next one.
    const carolFirst = await call(carol.token, "POST", `/queues/${queue.id}/next`);
    expect((carolFirst.body.item as Json).id).toBe(item.id);
    const ownerFirst = await call(owner.token, "POST", `/queues/${queue.id}/next`);
    expect((ownerFirst.body.item as Json).position).toBe(1);

    const bad = await call(bob.token, "PUT", `/queues/${queue.id}/items/${item.id}/label`, {
      labels: [{ criterion: "rubric", score: 11 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([
      { path: "labels.0.score", message: "a whole number from 1 to 10" },
    ]);
    const longReason = await call(bob.token, "PUT", `/queues/${queue.id}/items/${item.id}/label`, {
      labels: [{ criterion: "rubric", score: 8 }],
      reason: "y".repeat(2_001),
    });
    expect(longReason.status).toBe(400);
    expect(JSON.stringify(longReason.body.issues)).toContain("reason");

    const saved = await call(bob.token, "PUT", `/queues/${queue.id}/items/${item.id}/label`, {
      labels: [{ criterion: "rubric", score: 8 }],
      reason: "right year",
    });
    expect(saved.status).toBe(200);
    expect(saved.body.judge).toMatchObject({
      judges: [{ name: "rubric", raw_score: 9, passed: true }],
    });
    const progress = await call(owner.token, "GET", `/queues/${queue.id}`);
    expect(progress.body.progress).toMatchObject({
      slots: 12,
      slots_filled: 1,
      // The assigned reviewers and whoever has labelled (alice only holds a lock).
      reviewers: [
        { name: "bob", labelled: 1 },
        { name: "carol", labelled: 0 },
      ],
    });
    // Bob moves on; he never sees item 0 again.
    const second = await call(bob.token, "POST", `/queues/${queue.id}/next`);
    expect((second.body.item as Json).position).toBe(1);
    expect(second.body.labelled).toBe(1);
  });

  it("stores one of two saves of the last slot and refuses the other with a 409", async () => {
    const { db, team, owner, bob, carol, run, call } = await setup();
    const made = await call(owner.token, "POST", "/queues", {
      name: "one each",
      source: { kind: "run", evaluation_id: run.id, sample: { size: 2, seed: 7 } },
      rubric: { kind: "pass_fail", description: "Is the answer right?" },
      reviewers: [bob.user.id, carol.user.id],
      reviewers_per_item: 1,
    });
    const queueId = (made.body as { id: string }).id;
    expect(made.body.items).toBe(2);
    const as = (user: User) => ({
      workspaceId: team.id,
      userId: user.id,
      role: "annotator" as const,
    });
    // Both locks lapse at once (0 ms), so both reviewers are handed the same first slot.
    const bobItem = (await nextItem(db, as(bob.user), queueId, 0)).item;
    const carolItem = (await nextItem(db, as(carol.user), queueId, 0)).item;
    expect(carolItem?.id).toBe(bobItem?.id);
    const label = { labels: [{ criterion: "pass", passed: true }] };
    const outcomes = await Promise.allSettled([
      saveLabels(db, as(bob.user), queueId, bobItem!.id, label),
      saveLabels(db, as(carol.user), queueId, bobItem!.id, label),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as Error).name).toBe("QueueSlotTakenError");
    const items = await call(owner.token, "GET", `/queues/${queueId}/items`);
    const labels = (items.body.items as { labels: unknown[] }[])[0]!.labels;
    expect(labels).toHaveLength(1);

    // Over HTTP the refusal is a 409; a live lock of another reviewer keeps the slot theirs.
    const held = await call(bob.token, "POST", `/queues/${queueId}/next`);
    const heldId = (held.body.item as { id: string }).id;
    const taken = await call(carol.token, "PUT", `/queues/${queueId}/items/${heldId}/label`, label);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe("slot_taken");
    expect((await call(carol.token, "POST", `/queues/${queueId}/next`)).body.item).toBeNull();
  });

  it("measures agreement between people, and adjudication feeds calibration", async () => {
    const { db, team, owner, bob, carol, erin, run, call } = await setup();
    const made = await call(owner.token, "POST", "/queues", {
      name: "three people",
      source: { kind: "run", evaluation_id: run.id },
      reviewers: [bob.user.id, carol.user.id, erin.user.id],
      reviewers_per_item: 3,
    });
    const queueId = (made.body as { id: string }).id;
    // Scores per item (bob, carol, erin); item 2 is the widest disagreement.
    const scores = [
      [9, 9, 8],
      [7, 8, 8],
      [2, 9, 5],
      [6, 6, 6],
      [2, 3, 2],
      [7, 7, 9],
    ];
    const reviewers = [bob, carol, erin];
    for (const [r, reviewer] of reviewers.entries()) {
      for (let i = 0; i < scores.length; i++) {
        const next = await call(reviewer.token, "POST", `/queues/${queueId}/next`);
        const item = next.body.item as { id: string; position: number };
        const score = scores[item.position]![r]!;
        const saved = await call(
          reviewer.token,
          "PUT",
          `/queues/${queueId}/items/${item.id}/label`,
          {
            labels: [{ criterion: "rubric", score }],
          },
        );
        expect(saved.status).toBe(200);
      }
      expect((await call(reviewer.token, "POST", `/queues/${queueId}/next`)).body.item).toBeNull();
    }
    const queue = await call(owner.token, "GET", `/queues/${queueId}`);
    expect(queue.body).toMatchObject({ items: 6, complete: 6 });

    const agreement = await call(owner.token, "GET", `/queues/${queueId}/agreement`);
    const [criterion] = agreement.body.criteria as {
      alpha: number;
      alpha_ci: [number, number];
      items: number;
      kappas: { a: string; b: string; n: number }[];
    }[];
    // The same units the calibration module's α reads, reviewers as coders.
    expect(criterion!.alpha).toBeCloseTo(krippendorffAlpha(scores, "ordinal")!, 12);
    expect(criterion!.items).toBe(6);
    expect(criterion!.alpha_ci[0]).toBeLessThanOrEqual(criterion!.alpha);
    expect(criterion!.alpha_ci[1]).toBeGreaterThanOrEqual(criterion!.alpha_ci[0]);
    expect(criterion!.kappas.map((k) => [k.a, k.b, k.n])).toEqual([
      ["bob", "carol", 6],
      ["bob", "erin", 6],
      ["carol", "erin", 6],
    ]);
    const disagreements = agreement.body.disagreements as { position: number; spread: number }[];
    expect(disagreements[0]).toMatchObject({ position: 2, spread: 7 / 9 });
    expect(disagreements.map((d) => d.position)).not.toContain(3);

    // Adjudication: an annotator may not; the owner sets the final label of the widest item.
    const items = await call(owner.token, "GET", `/queues/${queueId}/items?order=disagreement`);
    const widest = (items.body.items as { id: string; labels: unknown[] }[])[0]!;
    expect(widest.labels).toHaveLength(3);
    const final = {
      labels: [{ criterion: "rubric", score: 4 }],
      reason: "the founder is invented",
    };
    expect(
      (await call(bob.token, "PUT", `/queues/${queueId}/items/${widest.id}/final`, final)).status,
    ).toBe(403);
    const adjudicated = await call(
      owner.token,
      "PUT",
      `/queues/${queueId}/items/${widest.id}/final`,
      final,
    );
    expect(adjudicated.status).toBe(200);
    expect(adjudicated.body.human_labels_written).toBe(1);
    const labels = await listHumanLabels(db, team.id, run.id);
    expect(labels.map((l) => [l.position, l.scale, l.score, l.labelled_by])).toEqual([
      [2, "1-10", 4, "alice (adjudicated)"],
    ]);

    // Calibration: the judge against the adjudicated label, and beside it against each reviewer.
    const report = await calibrateEvaluation(db, team.id, run.id);
    expect(report.items.labelled_scores).toBe(1);
    expect(report.agreement?.mae).toBe(1);
    expect(report.reviewers.map((r) => [r.reviewer, r.scores?.n])).toEqual([
      ["bob", 6],
      ["carol", 6],
      ["erin", 6],
    ]);
    // Judge 9 8 3 6 2 7 against bob 9 7 2 6 2 7.
    expect(report.reviewers[0]!.scores?.mae).toBeCloseTo(2 / 6, 12);
    const api = await call(owner.token, "GET", `/evaluations/${run.id}/calibration`);
    expect((api.body.reviewers as unknown[]).length).toBe(3);
  });

  it("makes a pass/fail queue of production answers (Send to labelling)", async () => {
    const { owner, bob, outsider, call } = await setup();
    const answer = (message: string) => ({
      conversation_id: "conv-1",
      message_id: message,
      retrieval_record: { id: `r-${message}`, query: "When was the bridge built?" },
      retrieval_hits: [{ node_id: "n1", content: "The bridge was built in 1870." }],
      generation_record: { id: `g-${message}`, model: "gpt-4o-mini" },
      generation_output: { answer: "In 1870 [n1].", citations: [{ node_id: "n1" }] },
    });
    const sent = await call(owner.token, "POST", "/answers", {
      answers: [answer("m1"), answer("m2")],
    });
    const ids = (sent.body.answers as { id: string }[]).map((a) => a.id);
    const made = await call(owner.token, "POST", "/queues", {
      name: "live answers",
      source: { kind: "production", answer_ids: ids },
      reviewers: [bob.user.id],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      kind: "production",
      items: 2,
      rubric: { kind: "pass_fail" },
    });
    const next = await call(bob.token, "POST", `/queues/${(made.body as Json).id}/next`);
    expect(next.body.item).toMatchObject({
      subject: { kind: "answer", answer_id: ids[0] },
      content: { question: "When was the bridge built?", answer: "In 1870 [n1]." },
    });
    // Another workspace's answers are not found.
    const theirs = await call(outsider.token, "POST", "/queues", {
      name: "x",
      source: { kind: "production", answer_ids: ids },
      reviewers: [outsider.user.id],
    });
    expect(theirs.status).toBe(404);
  });

  it("bounds rubric fields by name, and only an owner or editor deletes a queue", async () => {
    const { owner, bob, outsider, run, call } = await setup();
    const base = {
      name: "criteria",
      source: { kind: "run", evaluation_id: run.id },
      reviewers: [bob.user.id],
    };
    const long = await call(owner.token, "POST", "/queues", {
      ...base,
      rubric: {
        kind: "criteria",
        criteria: [{ name: "accuracy", scale: "1-5", description: "z".repeat(2_001) }],
      },
    });
    expect(long.status).toBe(400);
    expect(long.body.issues).toEqual([
      expect.objectContaining({ path: "rubric.criteria.0.description" }),
    ]);
    const scale = await call(owner.token, "POST", "/queues", {
      ...base,
      rubric: { kind: "criteria", criteria: [{ name: "accuracy", scale: "1-7" }] },
    });
    expect(scale.body.issues).toEqual([
      expect.objectContaining({ path: "rubric.criteria.0.scale" }),
    ]);
    const made = await call(owner.token, "POST", "/queues", {
      ...base,
      rubric: {
        kind: "criteria",
        criteria: [
          { name: "accuracy", scale: "1-5", description: "Is every fact right?" },
          { name: "safe", scale: "pass_fail" },
        ],
      },
    });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    const next = await call(bob.token, "POST", `/queues/${id}/next`);
    const itemId = (next.body.item as { id: string }).id;
    const missing = await call(bob.token, "PUT", `/queues/${id}/items/${itemId}/label`, {
      labels: [{ criterion: "accuracy", score: 4 }],
    });
    expect(missing.body.issues).toEqual([{ path: "labels", message: "safe is missing" }]);
    const saved = await call(bob.token, "PUT", `/queues/${id}/items/${itemId}/label`, {
      labels: [
        { criterion: "safe", passed: true },
        { criterion: "accuracy", score: 4 },
      ],
    });
    expect(saved.status).toBe(200);

    expect((await call(bob.token, "DELETE", `/queues/${id}`)).status).toBe(403);
    expect((await call(outsider.token, "DELETE", `/queues/${id}`)).status).toBe(404);
    expect((await call(owner.token, "DELETE", `/queues/${id}`)).status).toBe(204);
    expect((await call(owner.token, "GET", `/queues/${id}`)).status).toBe(404);
  });
});
