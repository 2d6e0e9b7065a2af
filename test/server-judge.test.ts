import { afterAll, beforeAll, expect, it } from "vitest";
import { parseLlmConfig } from "../src/llm/index.js";
import { createApp } from "../src/server/index.js";
import { createApiToken, findOrCreateUser, type Store } from "../src/store/index.js";
import { isChat, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.js";
import { openTestStore } from "./support/stores.js";

let store: Store;
let llm: ScriptedLlm;
// No socket: Hono's app.request() runs the same middleware and routes in process.
let withLlm: ReturnType<typeof createApp>;
let withoutLlm: ReturnType<typeof createApp>;
let token = "";

const LINE = {
  question: "When was Veldmark founded?",
  answer: "Veldmark was founded in 1187 by salt traders [1].",
  contexts: [{ node_id: "n1", content: "Veldmark was founded in 1187 by salt traders." }],
  ground_truth: "Veldmark was founded in 1187.",
};

beforeAll(async () => {
  store = await openTestStore("pglite");
  llm = await startScriptedLlm({
    rules: [
      {
        when: isChat,
        reply: {
          auto: {
            reasonableness: { passed: true, problems: [] },
            evidence: { passed: true, problems: [] },
          },
        },
      },
    ],
  });
  const llmConfig = parseLlmConfig({ base_url: llm.baseUrl, api_key: "sk-secret" });
  withLlm = createApp({ db: store.db, llm: llmConfig });
  withoutLlm = createApp({ db: store.db });
  token = await createApiToken(store.db, (await findOrCreateUser(store.db, "alice")).id);
});
afterAll(async () => {
  await llm.close();
  await store.close();
});

const post = (app: ReturnType<typeof createApp>, body: unknown) =>
  app.request("/api/v1/judge", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

it("runs the review judge on the judge role's LLM and returns {passed, suggestions}", async () => {
  const response = await post(withLlm, { ...LINE, judges: ["review"] });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    results: { review: { verdict: unknown; outcome: string } };
  };
  expect(body.results.review.outcome).toBe("ok");
  expect(body.results.review.verdict).toEqual({ passed: true, suggestions: [] });
  expect(JSON.stringify(body)).not.toContain("sk-secret");
});

it("serves the offline judge without any LLM, and says so when an LLM judge is asked for", async () => {
  const offline = await post(withoutLlm, { ...LINE, judges: ["offline"] });
  expect(offline.status).toBe(200);
  const body = (await offline.json()) as {
    results: { offline: { score: number; passed: boolean } };
  };
  expect(body.results.offline.score).toBeGreaterThan(0.5);
  const refused = await post(withoutLlm, { ...LINE, judges: ["rubric"] });
  expect(refused.status).toBe(409);
});

it("names the missing ground truth for the reference judge", async () => {
  const { ground_truth: _dropped, ...line } = LINE;
  const response = await post(withLlm, { ...line, judges: ["reference"] });
  expect(response.status).toBe(400);
  expect(JSON.stringify(await response.json())).toContain('"path":"ground_truth"');
});

it("takes several references (ground_truths) for the offline and reference judges", async () => {
  const { ground_truth: _dropped, ...line } = LINE;
  const offline = await post(withoutLlm, {
    ...line,
    ground_truths: ["1187", "in the year 1187"],
    judges: ["offline"],
  });
  expect(offline.status).toBe(200);
  const body = (await offline.json()) as {
    results: { offline: { passed: boolean; verdict: Record<string, unknown> } };
  };
  expect(body.results.offline.passed).toBe(true);
  expect(body.results.offline.verdict).toMatchObject({
    reference_verdict: "correct",
    abstained: false,
  });
  // ground_truths alone satisfy the reference judge's requirement.
  const reference = await post(withLlm, {
    ...line,
    ground_truths: ["1187"],
    judges: ["reference"],
  });
  expect(reference.status).toBe(200);
});

it("serves the baseline judges by name without any LLM, naming what a line lacks", async () => {
  const response = await post(withoutLlm, {
    ...LINE,
    judges: ["token_precision", "contains_reference"],
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    results: {
      token_precision: { score: number; verdict: { token_precision: number } };
      contains_reference: { passed: boolean };
    };
  };
  // veldmark, was, founded, in, 1187, by, salt, traders, 1 ("[1]"): 8 of 9 in the context.
  expect(body.results.token_precision.score).toBe(0.8889);
  expect(body.results.contains_reference.passed).toBe(true);
  const { contexts: _dropped, ...line } = LINE;
  const refused = await post(withoutLlm, { ...line, judges: ["token_precision"] });
  expect(refused.status).toBe(400);
  expect(JSON.stringify(await refused.json())).toContain('"path":"contexts"');
});

it("serves claims_offline without any LLM: RAGChecker's metrics and the diagnosis, labelled approximate", async () => {
  const response = await post(withoutLlm, { ...LINE, judges: ["claims_offline"] });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    results: {
      claims_offline: {
        verdict: {
          approximate: string;
          metrics: Record<string, number>;
          diagnosis: { missed: unknown[]; unsupported: unknown[] };
        };
      };
    };
  };
  const verdict = body.results.claims_offline.verdict;
  expect(verdict.approximate).toBe("approximate: sentences as claims, offline entailment");
  expect(Object.keys(verdict.metrics).sort()).toEqual(
    [
      "claim_recall",
      "context_precision",
      "context_utilization",
      "f1",
      "faithfulness",
      "hallucination",
      "noise_sensitivity_in_irrelevant",
      "noise_sensitivity_in_relevant",
      "precision",
      "recall",
      "self_knowledge",
    ].sort(),
  );
  const { ground_truth: _dropped, ...line } = LINE;
  const refused = await post(withoutLlm, { ...line, judges: ["claims_offline"] });
  expect(refused.status).toBe(400);
  expect(JSON.stringify(await refused.json())).toContain('"path":"ground_truth"');
});
