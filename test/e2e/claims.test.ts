import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "./support/app-server.js";
import type { Browser } from "./support/browser.js";
import { type E2eSession, startE2eSession } from "./support/session.js";

// Issue 26 §3, in the browser: the claims judge's diagnosis of each answer on the run page (which
// ground-truth claims were missed and which answer claims are not backed, with the passage each
// came from), and its RAGChecker metrics side by side on the compare page.

let session: E2eSession;
let server: AppServer;
let browser: Browser;
let run = "";
let other = "";

interface Diagnosis {
  missed: { claim: string; chunk: number | null }[];
  unsupported: { claim: string; contradicts: boolean; chunk: number | null }[];
}

beforeAll(async () => {
  session = await startE2eSession({ botDelayMs: 0 });
  ({ server, browser } = session);
  [run, other] = await Promise.all([
    session.finishedRun("claims A", undefined, ["claims_offline"]),
    session.finishedRun("claims B", undefined, ["claims_offline", "offline"]),
  ]);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe("claim-level diagnosis", { timeout: 90_000 }, () => {
  it("lists the answer's missed and unsupported claims with their passages, labelled approximate", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/${run}`);
    const card = page.getByTestId("result-card").first();
    await card.waitFor();
    // The summary and charts load after the list and move it: click once the page has settled.
    await page.waitForLoadState("networkidle");
    await card.getByRole("button", { name: /Details|详情/ }).click();
    const diagnosis = card.getByTestId("claims-diagnosis");
    // It failed once in CI (not reproduced at 4-10x CPU throttling): on failure, say what the
    // opened card showed instead.
    await expect
      .poll(async () => (await diagnosis.count()) > 0 || (await card.textContent()), {
        timeout: 30_000,
      })
      .toBe(true);

    // What the API holds for this first result is what the page lists, in words.
    const { items } = await server.json<{ items: { id: string }[] }>(
      `/api/v1/evaluations/${run}/results?limit=1`,
    );
    const result = await server.json<{
      judges: { claims_offline: { verdict: { diagnosis: Diagnosis } } };
    }>(`/api/v1/evaluations/${run}/results/${items[0]?.id}`);
    const expected = result.judges.claims_offline.verdict.diagnosis;
    expect(expected.missed.length + expected.unsupported.length).toBeGreaterThan(0);

    expect(await diagnosis.getByTestId("claims-approximate").textContent()).toContain(
      "each sentence stands in for a claim",
    );
    const missed = await diagnosis.getByTestId("claim-missed").allTextContents();
    expect(missed).toHaveLength(expected.missed.length);
    expected.missed.forEach((entry, i) => {
      expect(missed[i]).toContain(entry.claim);
      expect(missed[i]).toMatch(
        entry.chunk === null
          ? /no retrieved passage holds it: the retriever missed it$/
          : new RegExp(
              `passage ${entry.chunk}( \\(.+\\))? holds it: retrieved, but the answer left it out$`,
            ),
      );
    });
    const unsupported = await diagnosis.getByTestId("claim-unsupported").allTextContents();
    expect(unsupported).toHaveLength(expected.unsupported.length);
    expected.unsupported.forEach((entry, i) => {
      expect(unsupported[i]).toContain(entry.claim);
      expect(unsupported[i]).toMatch(
        entry.chunk === null
          ? /in no retrieved passage: invented/
          : new RegExp(`taken from passage ${entry.chunk}`),
      );
    });
    // Words, never the verdict's JSON.
    expect(await diagnosis.textContent()).not.toMatch(/[{}"]|Entailment|Neutral/);

    // The run's metrics in the summary: RAGChecker's report, as the API gives it.
    const detail = await server.json<{
      summary: {
        judges: { claims_offline: { claim_metrics: { generator: { faithfulness: number } } } };
      };
    }>(`/api/v1/evaluations/${run}`);
    const faithfulness = page.locator(
      '[data-testid="claim-metrics"][data-judge="claims_offline"] tr[data-metric="faithfulness"] td',
    );
    expect(await faithfulness.textContent()).toBe(
      detail.summary.judges.claims_offline.claim_metrics.generator.faithfulness.toFixed(1),
    );
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("puts both runs' claim metrics side by side on the compare page", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/compare?base=${run}&head=${other}`);
    const table = page.getByTestId("compare-claims");
    await table.waitFor();
    const comparison = await server.json<{
      base: {
        summary: { judges: { claims_offline: { claim_metrics: { overall: { recall: number } } } } };
      };
      head: {
        summary: { judges: { claims_offline: { claim_metrics: { overall: { recall: number } } } } };
      };
    }>(`/api/v1/evaluations/compare?base=${run}&head=${other}`);
    const recall = table.locator('[data-testid="compare-claim-row"][data-metric="recall"] td');
    const cells = await recall.allTextContents();
    expect(cells[0]).toBe("Overall · recall");
    expect(cells[1]).toBe(
      comparison.base.summary.judges.claims_offline.claim_metrics.overall.recall.toFixed(1),
    );
    expect(cells[2]).toBe(
      comparison.head.summary.judges.claims_offline.claim_metrics.overall.recall.toFixed(1),
    );
    expect(await table.locator('[data-testid="compare-claim-row"]').count()).toBe(11);
    expect(await table.textContent()).toContain("Approximate");
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
