import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "./support/app-server.js";
import type { Browser } from "./support/browser.js";
import { waitForRun } from "./support/fixtures.js";
import { type E2eSession, startE2eSession } from "./support/session.js";

// Issue 26 §4 in the browser: a run whose questions name their relevant documents shows hit
// rate, recall, precision, MRR and nDCG in its summary and per question, and compare puts two
// runs' means side by side.

let session: E2eSession;
let server: AppServer;
let browser: Browser;
const runs = { k3: "", k1: "" };

interface Summary {
  retrieval: { count: number; k: number; means: Record<string, number> } | null;
}

const QUESTIONS = [
  { question: "When does the Lanting Metro run?", relevant_ids: ["faq-metro-hours"] },
  { question: "How much is the Gull Island ferry?", relevant_ids: ["faq-ferry-fare"] },
  {
    question: "How long is the crossing from the Old Quay?",
    reference_contexts: ["The crossing from the Old Quay takes 35 minutes."],
  },
];

beforeAll(async () => {
  session = await startE2eSession({ botDelayMs: 0 });
  ({ server, browser } = session);
  const set = await server.json<{ id: string }>("/api/v1/question-sets/import", {
    method: "POST",
    json: {
      name: "faq with relevant documents",
      format: "jsonl",
      content: QUESTIONS.map((q) => JSON.stringify(q)).join("\n"),
      collection_id: session.collectionId,
    },
  });
  const start = async (k: number) => {
    const { id } = await server.json<{ id: string }>("/api/v1/evaluations", {
      method: "POST",
      json: {
        name: `retrieval k=${k}`,
        question_set_id: set.id,
        collection_id: session.collectionId,
        judges: ["offline"],
        retrieval_k: k,
      },
    });
    expect(await waitForRun(server, id)).toBe("COMPLETED");
    return id;
  };
  runs.k3 = await start(3);
  runs.k1 = await start(1);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

const shown = (value: number) => value.toFixed(2);

describe("retrieval metrics on the run and compare pages", { timeout: 90_000 }, () => {
  it("shows the run's means at its k, and each question's metrics with its relevant document found", async () => {
    const { summary } = await server.json<{ summary: Summary }>(`/api/v1/evaluations/${runs.k3}`);
    expect(summary.retrieval?.count).toBe(3);
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/${runs.k3}`);
    const panel = page.getByTestId("retrieval-summary");
    await panel.waitFor();
    expect(await panel.textContent()).toContain(
      "Means over 3 questions that name their relevant documents or passages; the top 3 retrieved count.",
    );
    for (const [metric, label] of [
      ["hit_rate", "Hit rate@3"],
      ["recall", "Recall@3"],
      ["precision", "Precision@3"],
      ["mrr", "MRR"],
      ["ndcg", "nDCG@3"],
    ] as const) {
      expect(await panel.textContent()).toContain(label);
      expect(await page.getByTestId(`retrieval-mean-${metric}`).textContent()).toBe(
        shown(summary.retrieval?.means[metric] ?? Number.NaN),
      );
    }

    // The metro question: its FAQ line, named by the id given at ingest, and where it was found.
    const results = await server.json<{ items: { id: string; question_text: string }[] }>(
      `/api/v1/evaluations/${runs.k3}/results?limit=10`,
    );
    const metroId = results.items.find((r) => r.question_text.startsWith("When does"))?.id;
    const metro = await server.json<{
      retrieval: { mrr: number; recall: number; matched: { id: string; rank: number }[] };
    }>(`/api/v1/evaluations/${runs.k3}/results/${metroId}`);
    const card = page.getByTestId("result-card").first();
    await card.getByRole("button", { name: /Details/ }).click();
    const section = card.getByTestId("result-retrieval");
    await section.waitFor();
    expect(await section.textContent()).toContain("Relevant documents named by the question: 1");
    expect(await card.getByTestId("result-retrieval-metric-mrr").textContent()).toBe(
      shown(metro.retrieval.mrr),
    );
    const found = metro.retrieval.matched[0];
    expect(await card.getByTestId("retrieval-found").textContent()).toBe(
      found ? `Found: faq-metro-hours at place ${found.rank}` : "Found: none",
    );
    await section.getByText("Retrieved sources").click();
    expect(await card.getByTestId("source-document-id").allTextContents()).toContain(
      " · document faq-metro-hours",
    );
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("puts two runs' means side by side in compare, with B − A", async () => {
    const comparison = await server.json<{
      base: { summary: Summary };
      head: { summary: Summary };
    }>(`/api/v1/evaluations/compare?base=${runs.k1}&head=${runs.k3}`);
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/compare?base=${runs.k1}&head=${runs.k3}`);
    const table = page.getByTestId("compare-retrieval");
    await table.waitFor();
    const a = comparison.base.summary.retrieval?.means.recall ?? Number.NaN;
    const b = comparison.head.summary.retrieval?.means.recall ?? Number.NaN;
    const cells = await page
      .getByTestId("compare-retrieval-recall")
      .locator("td")
      .allTextContents();
    const delta = b - a;
    const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
    expect(cells).toEqual([shown(a), shown(b), `${sign}${Math.abs(delta).toFixed(2)}`]);
    // The runs cut at different k: the labels say k rather than one run's number.
    expect(await page.getByTestId("compare-retrieval-recall").locator("th").textContent()).toBe(
      "Recall@k",
    );
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
