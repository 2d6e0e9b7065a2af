import { beforeAll, beforeEach, expect, it } from "vitest";
import type { GuardResult } from "../src/gate/index.js";
import { createApp } from "../src/server/index.js";
import { createApiToken, findOrCreateUser } from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

const HIT =
  "The Lanting bridge was built in 1870 by the river guild and has nine stone arches. " +
  "Tickets cost 12 yuan for adults.";

function body(answer: string) {
  return {
    conversation_id: "c1",
    message_id: "m1",
    retrieval_record: { id: "r1", query: "When was the bridge built?" },
    retrieval_hits: [{ node_id: "n1", content: HIT }],
    generation_record: { id: "g1", model: "any" },
    generation_output: { answer, citations: [{ node_id: "n1" }] },
  };
}

type GuardBody = GuardResult & { record_id?: string };

const GOOD = "The Lanting bridge was built in 1870 by the river guild [n1].";
const WRONG_FIGURE = `${GOOD} Adult tickets cost 15 yuan [n1].`;

describeEachStore("POST /api/v1/guard", (use) => {
  let app: ReturnType<typeof createApp>;
  let alice = "";
  let bob = "";

  beforeAll(() => {
    app = createApp({ db: use().db, maxBodyBytes: 1024 * 1024 });
  });
  // The store is emptied before each test.
  beforeEach(async () => {
    const { db } = use();
    alice = await createApiToken(db, (await findOrCreateUser(db, "guard-alice")).id);
    bob = await createApiToken(db, (await findOrCreateUser(db, "guard-bob")).id);
  });

  const call = (path: string, token: string, json?: unknown) =>
    app.request(path, {
      method: json === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });

  it("repairs an answer with a figure the passage does not state, and says why", async () => {
    const response = await call("/api/v1/guard", alice, body(WRONG_FIGURE));
    expect(response.status).toBe(200);
    const result = (await response.json()) as GuardBody;
    expect(result.decision).toBe("repair");
    expect(result.answer).toBe(GOOD);
    expect(result.reasons).toEqual([
      {
        check: "numeric_consistency",
        status: "fail",
        message: "1 of 2 figures are not in the cited passages: 15.",
      },
    ]);
    expect(result.record_id).toBeUndefined();
  });

  it("blocks instead with repair=false, and words the reasons in Chinese with lang=zh", async () => {
    const response = await call("/api/v1/guard?repair=false&lang=zh", alice, body(WRONG_FIGURE));
    const result = (await response.json()) as GuardBody;
    expect(result.decision).toBe("block");
    expect(result.answer).toBe("");
    expect(result.reasons[0]?.message).toBe("2 个数字中有 1 个不在所引段落中：15。");
  });

  it("stores the record of the answer as given with record=true, readable only by its owner", async () => {
    const response = await call("/api/v1/guard?record=true", alice, body(WRONG_FIGURE));
    const result = (await response.json()) as GuardBody;
    expect(result.record_id).toMatch(/^[0-9a-f-]{36}$/);
    const record = await call(`/api/v1/evaluation-records/${result.record_id}`, alice);
    expect(record.status).toBe(200);
    const stored = (await record.json()) as {
      status: string;
      input: { generation_output: { answer: string } };
    };
    expect(stored.status).toBe("fail");
    expect(stored.input.generation_output.answer).toBe(WRONG_FIGURE);
    expect((await call(`/api/v1/evaluation-records/${result.record_id}`, bob)).status).toBe(404);
  });

  it("names the field of an invalid body and an invalid query value", async () => {
    const bad = body(GOOD) as Record<string, unknown>;
    delete bad.generation_output;
    const response = await call("/api/v1/guard", alice, bad);
    expect(response.status).toBe(400);
    const error = (await response.json()) as { issues: { path: string }[] };
    expect(error.issues.map((i: { path: string }) => i.path)).toContain("generation_output");
    const lang = await call("/api/v1/guard?lang=fr", alice, body(GOOD));
    expect(lang.status).toBe(400);
    expect(JSON.stringify(await lang.json())).toContain("lang");
  });
});
