import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EvaluationWorker, startEvaluationWorker } from "../src/evals/runs/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { createBuiltinBot, DEFAULT_LOOPS_CONFIG, RetrievalConfigSchema } from "../src/rag/index.js";
import { createApp } from "../src/server/index.js";
import { createApiToken, findOrCreateUser, type Store } from "../src/store/index.js";
import { openTestStore } from "./support/stores.js";

// Issue 26 §4 end to end: questions imported with relevant_ids and reference_contexts, a run of
// the built-in bot over the example corpus, and the retrieval metrics read back from the API.

const corpusDir = fileURLToPath(new URL("../examples/corpus/", import.meta.url));

const config = {
  rag: {
    loops: {
      ...DEFAULT_LOOPS_CONFIG,
      observations: { ...DEFAULT_LOOPS_CONFIG.observations, path: null },
    },
    retrieval: RetrievalConfigSchema.parse({}),
  },
};

// A CSV as a spreadsheet writes it: a list cell holds JSON, a single id may stand alone.
const CSV = [
  "question,answer,relevant_ids,reference_contexts",
  `When does the Lanting Metro run?,From 5:30 to 23:30.,faq-metro-hours,`,
  `How much is the Gull Island ferry?,6 yuan.,"[""faq-ferry-fare"",""no-such-document""]",`,
  `How long is the ferry crossing from the Old Quay?,35 minutes.,,"[""The crossing from the Old Quay takes 35 minutes.""]"`,
  `Who founded the salt guild?,Nobody knows.,,`,
].join("\r\n");

interface Source {
  node_id: string;
  document_id?: string;
  content: string;
}
interface Retrieval {
  by: string;
  k: number;
  relevant: number;
  found: number;
  hit_rate: number;
  recall: number;
  precision: number;
  mrr: number;
  ndcg: number;
  matched: { id: string; rank: number }[];
  missing: string[];
}
interface Result {
  id: string;
  question_text: string;
  status: string;
  relevant_ids: string[] | null;
  reference_contexts: string[] | null;
  rag_answer_sources: Source[] | null;
  retrieval: Retrieval | null;
}

describe("retrieval metrics of a run over the HTTP API [pglite]", () => {
  let store: Store;
  let jobs: Jobs;
  let worker: EvaluationWorker;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    store = await openTestStore("pglite");
    jobs = await startJobs(store, { expireInSeconds: 5, heartbeatSeconds: 1 });
    app = createApp({ db: store.db, jobs, config });
    worker = startEvaluationWorker({ jobs, clientsFor: () => ({}), watchMs: 50 });
  });
  afterAll(async () => {
    await worker.stop();
    await jobs.stop();
    await store.close();
  });

  it("imports relevant ids, runs the built-in bot and reports hit rate, recall, precision, MRR and nDCG", async () => {
    const user = await findOrCreateUser(store.db, "retrieval");
    const token = await createApiToken(store.db, user.id);
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await app.request(`/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return (
        response.headers.get("content-type")?.startsWith("application/json")
          ? JSON.parse(text)
          : text
      ) as T;
    };

    const bot = createBuiltinBot({ db: store.db, workspaceId: user.id });
    await bot.ingestPaths([corpusDir], "lanting");
    const collectionId = await bot.resolveCollection("lanting");

    const set = await call<{ id: string; question_count: number }>(
      "POST",
      "/question-sets/import",
      { name: "faq", collection_id: collectionId, format: "csv", content: CSV },
    );
    expect(set.question_count).toBe(4);
    const questions = await call<{ questions: Result[] }>("GET", `/question-sets/${set.id}`);
    expect(questions.questions.map((q) => [q.relevant_ids, q.reference_contexts])).toEqual([
      [["faq-metro-hours"], null],
      [["faq-ferry-fare", "no-such-document"], null],
      [null, ["The crossing from the Old Quay takes 35 minutes."]],
      [null, null],
    ]);
    // An edit replaces a list, and an empty one clears it.
    const [first] = questions.questions as [Result & { id: string }];
    const edited = await call<{ relevant_ids: string[] | null }>(
      "PUT",
      `/question-sets/questions/${first.id}`,
      { relevant_ids: [" faq-metro-hours ", "faq-metro-hours", "lanting-transport.md"] },
    );
    expect(edited.relevant_ids).toEqual(["faq-metro-hours", "lanting-transport.md"]);
    const cleared = await call<{ relevant_ids: string[] | null }>(
      "PUT",
      `/question-sets/questions/${first.id}`,
      { relevant_ids: [] },
    );
    expect(cleared.relevant_ids).toBeNull();
    await call("PUT", `/question-sets/questions/${first.id}`, {
      relevant_ids: ["faq-metro-hours"],
    });
    // The export carries them back in the same columns.
    const exported = await call<string>("GET", `/question-sets/${set.id}/export?format=jsonl`);
    expect(exported).toContain('"relevant_ids":["faq-ferry-fare","no-such-document"]');

    const started = await call<{ id: string }>("POST", "/evaluations", {
      question_set_id: set.id,
      collection_id: collectionId,
      judges: ["offline"],
      retrieval_k: 3,
    });
    await expect
      .poll(
        async () => (await call<{ status: string }>("GET", `/evaluations/${started.id}`)).status,
        {
          timeout: 90_000,
          interval: 100,
        },
      )
      .toBe("COMPLETED");

    const list = await call<{ items: { id: string }[] }>(
      "GET",
      `/evaluations/${started.id}/results?limit=10`,
    );
    const results = await Promise.all(
      list.items.map((item) =>
        call<Result>("GET", `/evaluations/${started.id}/results/${item.id}`),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(["SCORED", "SCORED", "SCORED", "SCORED"]);
    const [metro, ferry, crossing, unlabelled] = results as [Result, Result, Result, Result];

    // Sources carry the ids the user gave at ingest, beside each chunk.
    const metroSources = metro.rag_answer_sources ?? [];
    const metroRank = metroSources.findIndex((s) => s.document_id === "faq-metro-hours") + 1;
    expect(metroRank).toBeGreaterThan(0);
    expect(metro.retrieval).toMatchObject({
      by: "ids",
      k: 3,
      relevant: 1,
      matched: [{ id: "faq-metro-hours", rank: metroRank }],
      missing: [],
      mrr: 1 / metroRank,
      hit_rate: metroRank <= 3 ? 1 : 0,
      recall: metroRank <= 3 ? 1 : 0,
    });

    // One of two relevant ids does not exist: recall is at most a half, and it is named missing.
    expect(ferry.retrieval?.relevant).toBe(2);
    expect(ferry.retrieval?.missing).toContain("no-such-document");
    expect(ferry.retrieval?.recall).toBeLessThanOrEqual(0.5);
    const ferryRank =
      (ferry.rag_answer_sources ?? []).findIndex((s) => s.document_id === "faq-ferry-fare") + 1;
    expect(ferry.retrieval?.mrr).toBe(ferryRank > 0 ? 1 / ferryRank : 0);

    // A reference text is matched to the chunk that holds it.
    expect(crossing.retrieval?.by).toBe("contexts");
    const holding = (crossing.rag_answer_sources ?? []).findIndex((s) =>
      s.content.includes("The crossing from the Old Quay takes 35 minutes."),
    );
    expect(crossing.retrieval?.matched).toEqual(
      holding < 0 ? [] : [{ id: "context 1", rank: holding + 1 }],
    );
    expect(unlabelled.retrieval).toBeNull();

    // The summary averages the three results that name relevant items.
    const detail = await call<{
      summary: { retrieval: { count: number; k: number; means: Record<string, number> } | null };
    }>("GET", `/evaluations/${started.id}`);
    const labelled = [metro, ferry, crossing].map((r) => r.retrieval as Retrieval);
    expect(detail.summary.retrieval?.count).toBe(3);
    expect(detail.summary.retrieval?.k).toBe(3);
    for (const name of ["hit_rate", "recall", "precision", "mrr", "ndcg"] as const) {
      const mean = labelled.reduce((sum, r) => sum + r[name], 0) / 3;
      expect(detail.summary.retrieval?.means[name]).toBeCloseTo(mean, 12);
    }
    // The metro question's FAQ line is what retrieval finds first: a known good answer.
    expect(metro.retrieval?.hit_rate).toBe(1);
  });

  it("refuses a relevant_ids cell that is not a list of strings, naming its row and field", async () => {
    const user = await findOrCreateUser(store.db, "retrieval-bad");
    const token = await createApiToken(store.db, user.id);
    const response = await app.request("/api/v1/question-sets/import", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "bad",
        format: "jsonl",
        content: '{"question":"a?","relevant_ids":["x"]}\n{"question":"b?","relevant_ids":[1]}\n',
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { rows: unknown[] };
    expect(body.rows).toEqual([
      { row: 2, field: "relevant_ids", message: "item 1: expected a string" },
    ]);
  });
});
