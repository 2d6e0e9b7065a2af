import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { lantingCollection, lantingQuestionSet, waitForRun } from "./support/fixtures.js";

// Issue 23 §1.1: a run started from the page and watched live ends on screen as a reload shows
// it (summary, cards, charts, filters), with no reload, on the embedded store and on PostgreSQL.

/** What the run's page shows of it, as text: the parts a finished run must get right. */
async function shownRun(page: Page) {
  const squeeze = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
  const all = async (selector: string) =>
    (await page.locator(selector).allTextContents()).map(squeeze);
  return {
    summary: squeeze(await page.getByTestId("summary-panel").textContent()),
    // Every chart's data table (the histogram, the radar, the per-type bars).
    charts: await all("figure.chart-box table"),
    count: squeeze(await page.getByTestId("results-count").textContent()),
    cards: await all('[data-testid="result-card"]'),
    // The question types offered as a filter come from the summary.
    filters: await all("select option"),
  };
}

/** Records every status the run's summary shows, from the page's first render on. */
const RECORD_STATUSES = `
  window.__statuses = [];
  new MutationObserver(() => {
    const badge = document.querySelector('[data-testid="summary-panel"] .badge');
    const status = badge && badge.textContent;
    if (status && window.__statuses.at(-1) !== status) window.__statuses.push(status);
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

describe.each(["embedded", "postgres"] as const)(
  "a run watched live [%s store]",
  { timeout: 180_000 },
  (storeKind) => {
    let server: AppServer;
    let browser: Browser;
    let setId = "";

    beforeAll(async () => {
      [server, browser] = await Promise.all([
        storeKind === "postgres"
          ? e2eDatabase().then((databaseUrl) => startAppServer({ databaseUrl }))
          : startAppServer({}),
        launchBrowser(),
      ]);
      setId = await lantingQuestionSet(server, await lantingCollection(server));
      const page = await browser.newPage();
      await page.goto(server.loginUrl);
      await page.waitForURL(/\/evaluations\/list$/);
      await page.close();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    it("ends as a reload shows it: summary, cards, charts and filters", async () => {
      const page = await browser.newPage();
      await page.addInitScript(RECORD_STATUSES);
      await page.goto(`${server.origin}/evaluations/new?question_set=${setId}`);
      await page.getByLabel("Built-in RAG bot").check();
      const collection = page.getByLabel("Collection the built-in bot answers from");
      await expect.poll(() => collection.locator("option", { hasText: "lanting" }).count()).toBe(1);
      await collection.selectOption({ label: "lanting" });
      await page.getByRole("button", { name: "Start the evaluation" }).click();
      await page.waitForURL(/\/evaluations\/[0-9a-f-]{36}$/);
      const id = page.url().split("/").at(-1) ?? "";
      await page.evaluate("window.__sameDocument = true");

      // The page shows the run finished, then the server agrees it is.
      const status = page.getByTestId("summary-panel").locator(".badge").first();
      await expect.poll(() => status.textContent(), { timeout: 120_000 }).toBe("Completed");
      expect(await waitForRun(server, id)).toBe("COMPLETED");

      // A fresh load of the same run, in its own tab, once its list and charts are there.
      const reloaded = await browser.newPage();
      await reloaded.goto(page.url());
      await expect
        .poll(() => reloaded.getByTestId("results-count").textContent())
        .toBe("24 of 24 results");
      await expect
        .poll(() => reloaded.locator("figure.chart-box table").count())
        .toBeGreaterThan(0);
      const truth = await shownRun(reloaded);
      expect(truth.summary).toContain("24 / 24");
      expect(truth.cards.length).toBeGreaterThan(0);
      expect(truth.cards.every((card) => !card.includes("Running"))).toBe(true);

      // The page that watched the run comes to show the same, without a reload.
      await expect.poll(() => shownRun(page), { timeout: 30_000 }).toEqual(truth);
      expect(await page.evaluate("window.__sameDocument")).toBe(true);
      // It did watch the run move: it showed it running before it showed it completed.
      const statuses = (await page.evaluate("window.__statuses")) as string[];
      expect(statuses.at(-1)).toBe("Completed");
      expect(statuses).toContain("Running");
      expect(browser.errors).toEqual([]);
      await reloaded.close();
      await page.close();
    });
  },
);
