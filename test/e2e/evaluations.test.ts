import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { judgeFailure } from "../../src/judges/index.js";
import type { TestBot } from "../support/test-bot.js";
import type { AppServer } from "./support/app-server.js";
import type { Browser } from "./support/browser.js";
import { waitForRun } from "./support/fixtures.js";
import { type E2eSession, startE2eSession } from "./support/session.js";

// Runs in the browser: starting one and following it live, the detail page's filters, citations
// and export, and comparing two runs.

let session: E2eSession;
let server: AppServer;
let browser: Browser;
let bot: TestBot;
let setId = "";
let builtinRun = "";
let httpRun = "";

beforeAll(async () => {
  session = await startE2eSession({ botDelayMs: 800 });
  ({ server, browser, bot, setId } = session);
  builtinRun = await session.finishedRun("built-in bot");
}, 120_000);

afterAll(async () => {
  await session?.close();
});

beforeEach(() => {
  browser.errors.length = 0;
});

describe("evaluations in the browser", { timeout: 90_000 }, () => {
  it("starts a run from the form and follows its progress live to COMPLETED", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/new?question_set=${setId}`);
    await page.getByLabel("Name (optional)").fill("my http bot");
    await page.getByLabel("My bot over HTTP").check();
    // A bad URL is named beside its field, and nothing is started.
    await page.getByLabel("Bot URL").fill("not a url");
    await page.getByRole("button", { name: "Start the evaluation" }).click();
    await expect
      .poll(() => page.locator("#err-bot_url").textContent())
      .toContain("http:// or https://");
    await page.getByLabel("Bot URL").fill(bot.url);
    await page.getByRole("button", { name: "Start the evaluation" }).click();
    await page.waitForURL(/\/evaluations\/[0-9a-f-]{36}$/);
    httpRun = page.url().split("/").at(-1) ?? "";
    await page.evaluate("window.__sameDocument = true");

    // Read the progress as the page shows it until the run completes, without reloading.
    const seen: string[] = [];
    let sawLive = false;
    await vi.waitFor(
      async () => {
        const count = await page
          .getByTestId("progress-count")
          .textContent()
          .catch(() => null);
        if (count && seen.at(-1) !== count) seen.push(count);
        sawLive ||= await page.getByText("Live", { exact: true }).isVisible();
        const summary = page.getByTestId("summary-panel");
        expect(await summary.getByText("Completed", { exact: true }).isVisible()).toBe(true);
      },
      { timeout: 60_000, interval: 100 },
    );
    // The count is read before the status in each round: read it once more now it is final.
    const final = await page.getByTestId("progress-count").textContent();
    if (final && seen.at(-1) !== final) seen.push(final);
    expect(seen.at(-1)).toBe("24/24");
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.some((s) => s !== "24/24" && s !== "0/24")).toBe(true);
    expect(sawLive).toBe(true);
    expect(await page.evaluate("window.__sameDocument")).toBe(true);
    expect(await waitForRun(server, httpRun)).toBe("COMPLETED");
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("filters the results, keeps the filters in the URL, opens a citation's passage and exports", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/${builtinRun}`);
    await expect
      .poll(() => page.getByTestId("results-count").textContent())
      .toBe("24 of 24 results");

    await page.getByLabel("Outcome").selectOption("failed");
    await page.waitForURL(/outcome=failed/);
    const failed = await server.json<{ items: { passed: boolean | null }[] }>(
      `/api/v1/evaluations/${builtinRun}/results?limit=500`,
    );
    const failedCount = failed.items.filter((r) => r.passed === false).length;
    expect(failedCount).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId("results-count").textContent())
      .toBe(`${failedCount} of 24 results`);
    // Every card shown is a failed one.
    expect(await page.getByTestId("result-card").count()).toBe(failedCount);
    for (const card of await page.getByTestId("result-card").all()) {
      expect(await card.getByText("failed", { exact: true }).first().isVisible()).toBe(true);
    }

    // A reload keeps the filter.
    await page.reload();
    await expect
      .poll(() => page.getByTestId("results-count").textContent())
      .toBe(`${failedCount} of 24 results`);
    expect(await page.getByLabel("Outcome").inputValue()).toBe("failed");

    // Export what is filtered.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "CSV" }).click(),
    ]);
    const csv = await readFile((await download.path()) ?? "", "utf8");
    const lines = csv.trim().split("\n");
    expect(lines[0]).toMatch(
      /^position,question_id,question_type,question_text,ground_truth,status,score,passed,/,
    );
    expect(csv.match(/,false,/g)?.length).toBe(failedCount);

    // Search narrows the list; a closed card shows the start of the answer, and opening it
    // fetches the result in full, where a citation opens the passage it cites.
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByLabel("Search questions and answers").fill("Wei Chenghai");
    await page.waitForURL(/q=Wei/);
    await expect.poll(() => page.getByTestId("result-card").count()).toBeLessThan(24);
    const card = page.getByTestId("result-card").filter({ hasText: "move their drying beds" });
    expect(await card.locator("button.citation").count()).toBe(0);
    const [detail] = await Promise.all([
      page.waitForResponse((r) => /\/results\/[0-9a-f-]{36}$/.test(r.url())),
      card.getByRole("button", { name: "Details" }).click(),
    ]);
    expect(detail.status()).toBe(200);
    expect(
      await card.getByRole("button", { name: "Hide details" }).getAttribute("aria-expanded"),
    ).toBe("true");
    const citation = card.locator("button.citation").first();
    const cited = await citation.textContent();
    await citation.click();
    const passage = card.getByTestId("passage");
    expect(await passage.textContent()).toContain(`Passage ${cited}`);
    expect(await passage.textContent()).toContain("In 1784 a group of salt merchants");
    expect(await citation.getAttribute("aria-expanded")).toBe("true");
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("compares two runs with the regressions first", async () => {
    expect(httpRun).not.toBe("");
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/compare?base=${builtinRun}&head=${httpRun}`);
    const rows = page.getByTestId("compare-row");
    await expect.poll(() => rows.count()).toBe(24);
    const kinds = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-kind")));
    expect(kinds[0]).toBe("regression");
    // Regressions, then changed, then improvements, then unchanged: never a regression after another kind.
    const firstOther = kinds.findIndex((k) => k !== "regression");
    expect(kinds.slice(firstOther === -1 ? kinds.length : firstOther)).not.toContain("regression");
    const counts = await page.getByTestId("compare-counts").textContent();
    expect(counts).toContain(`${kinds.filter((k) => k === "regression").length} regressions`);
    // The scatter's data table lists every question scored in both runs.
    await expect
      .poll(() => page.getByTestId("chart-scatter").locator("tbody tr").count())
      .toBeGreaterThan(0);

    await page.getByLabel("Show only changed").check();
    await page.waitForURL(/changed=true/);
    expect(
      await rows.evaluateAll((els) =>
        els.every((e) => e.getAttribute("data-kind") !== "unchanged"),
      ),
    ).toBe(true);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("shows a failed judge's reason on its result card", async () => {
    // The first result as a run stores a judge that could not judge (judges/result.ts).
    const failed = judgeFailure(
      { name: "offline", language: "en", model: "offline", calls: [] },
      { message: "the judge's reply was not JSON", cause: "reply", retryable: false, raw: ["{"] },
    );
    await server.store.db.execute(sql`
      update evaluation_results
      set status = 'JUDGE_ERROR', score = null, passed = null,
          error = 'offline: the judge''s reply was not JSON',
          judges = ${JSON.stringify({ offline: failed })}::jsonb
      where evaluation_id = ${builtinRun} and position = 0`);
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/${builtinRun}?status=JUDGE_ERROR`);
    const card = page.getByTestId("result-card");
    await expect.poll(() => card.count()).toBe(1);
    // The closed card shows the run's error; opened, the judge's own reason.
    expect(await card.locator(".notice").textContent()).toContain(
      "offline: the judge's reply was not JSON",
    );
    await card.getByRole("button", { name: "Details" }).click();
    await card.getByTestId("judge-errors").waitFor();
    await card.getByTestId("judge-errors").locator("summary").click();
    await card.locator(".error-text").waitFor();
    expect(await card.locator(".error-text").textContent()).toBe("the judge's reply was not JSON");
    expect(await card.textContent()).toContain("Judge error");
    expect(await card.textContent()).not.toContain("judge_error");
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
