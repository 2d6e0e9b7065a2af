import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { shoot } from "./support/screenshots.js";
import { type E2eSession, startE2eSession } from "./support/session.js";

// Every page, with no console error; collections (drag-and-drop upload, the bot's answer); the
// Chinese interface. With RAGJUDGE_SCREENSHOTS=DIR (`npm run screenshots`), each page is also
// saved as DIR/<name>.png for docs/web.md.

let session: E2eSession;
let server: AppServer;
let browser: Browser;
let setId = "";
let runA = "";
let runB = "";

beforeAll(async () => {
  session = await startE2eSession({ botDelayMs: 5 });
  ({ server, browser, setId } = session);
  runA = await session.finishedRun("built-in bot", { kind: "builtin" });
  runB = await session.finishedRun("echo bot over HTTP", { kind: "http", url: session.bot.url });
}, 120_000);

afterAll(async () => {
  await session?.close();
});

beforeEach(() => {
  browser.errors.length = 0;
});

describe("every page", { timeout: 90_000 }, () => {
  it("renders each page with no console error", async () => {
    const page = await browser.newPage();
    const visit = async (
      path: string,
      ready: () => Promise<unknown>,
      shot: string,
      fullPage = false,
    ) => {
      await page.goto(`${server.origin}${path}`);
      await expect.poll(ready, { timeout: 20_000 }).toBeTruthy();
      await shoot(page, shot, fullPage);
    };
    await visit(
      "/evaluations/list",
      () =>
        page
          .getByTestId("evaluation-row")
          .count()
          .then((n) => n === 2),
      "evaluation-list",
    );
    await visit(
      "/evaluations/new",
      () => page.getByRole("heading", { name: "New evaluation" }).isVisible(),
      "evaluation-new",
    );
    await visit(
      `/evaluations/${runA}`,
      () => page.getByTestId("chart-radar").isVisible(),
      "evaluation-detail",
      true,
    );
    // Each chart's data is in the page as a table, hidden until asked for.
    const radar = page.getByTestId("chart-radar");
    expect(await radar.locator("tbody tr").count()).toBeGreaterThan(2);
    // Visually hidden: clipped to one pixel, yet read by screen readers.
    const width = async () =>
      (await radar.locator("table").locator("..").boundingBox())?.width ?? 0;
    expect(await width()).toBeLessThanOrEqual(1);
    await radar.getByRole("button", { name: "Show the data as a table" }).click();
    expect(await width()).toBeGreaterThan(100);
    // The labelling view, blind; then one result scored by keyboard, its verdict beside.
    await visit(
      `/evaluations/${runA}/label`,
      () => page.getByTestId("verdict-hidden").isVisible(),
      "evaluation-label",
    );
    await page.keyboard.press("8");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("judge-verdict").isVisible()).toBe(true);
    await expect
      .poll(() => page.getByTestId("calibration-n").textContent(), { timeout: 20_000 })
      .toBe("1");
    await shoot(page, "evaluation-label-revealed", true);
    await visit(
      `/evaluations/compare?base=${runA}&head=${runB}`,
      () =>
        page
          .getByTestId("compare-row")
          .count()
          .then((n) => n === 24),
      "evaluation-compare",
    );
    await visit(
      "/evaluations/question-sets",
      () =>
        page
          .getByTestId("question-set-row")
          .count()
          .then((n) => n === 1),
      "question-set-list",
    );
    await visit(
      "/evaluations/question-sets/new",
      () => page.getByRole("heading", { name: "New question set" }).isVisible(),
      "question-set-new",
    );
    await visit(
      `/evaluations/question-sets/${setId}`,
      () => page.getByTestId("chart-trend").isVisible(),
      "question-set-editor",
    );
    // The trend lists both runs on the set.
    expect(await page.getByTestId("chart-trend").locator("tbody tr").count()).toBe(2);
    await visit(
      "/collections",
      () => page.getByRole("heading", { name: "lanting", level: 2 }).isVisible(),
      "collections",
    );
    // A deep link survives a reload, and the keyboard reaches the skip link first.
    await page.goto(`${server.origin}/evaluations/question-sets/${setId}`);
    await page.reload();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("lanting-questions");
    await page.keyboard.press("Tab");
    expect(await page.evaluate<string>("document.activeElement.textContent")).toBe(
      "Skip to content",
    );
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("uploads documents by drag and drop, names a bad file, and shows the bot's answer with its sources", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/collections`);
    await page.getByLabel("Name", { exact: true }).fill("dropped");
    await page.getByRole("button", { name: "Create a collection" }).click();
    await expect
      .poll(() => page.getByRole("heading", { name: "dropped", level: 2 }).isVisible())
      .toBe(true);

    const drop = async (files: { name: string; content: string }[]) => {
      const transfer = await page.evaluateHandle((list) => {
        // The page's own DataTransfer and File (this file is compiled without the DOM's types).
        const page = globalThis as unknown as {
          DataTransfer: new () => { items: { add(file: unknown): void } };
          File: new (parts: string[], name: string) => unknown;
        };
        const data = new page.DataTransfer();
        for (const f of list) data.items.add(new page.File([f.content], f.name));
        return data;
      }, files);
      await page.getByTestId("document-dropzone").dispatchEvent("drop", { dataTransfer: transfer });
    };
    // One unreadable line rejects the upload whole, named by file and line.
    await drop([
      {
        name: "ok.md",
        content: "# Ferry\n\nThe chain ferry took about 25 minutes to cross the estuary.",
      },
      { name: "broken.jsonl", content: '{"text":"fine"}\n{not json\n' },
    ]);
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain("broken.jsonl, line 2");
    await drop([
      {
        name: "ferry.md",
        content: "# Ferry\n\nThe chain ferry took about 25 minutes to cross the estuary.",
      },
    ]);
    await expect.poll(() => page.getByText("Ingested 1 documents.").isVisible()).toBe(true);

    await page
      .getByLabel("Question", { exact: true })
      .fill("How long did the chain ferry take to cross?");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    const answer = page.getByTestId("ask-answer");
    await expect.poll(() => answer.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await answer.textContent()).toContain("25 minutes");
    expect(await answer.getByTestId("mermaid-source").count()).toBe(2);
    expect(await answer.getByTestId("mermaid-source").first().textContent()).toContain("flowchart");
    await shoot(page, "collections-ask");
    // The bad upload's 400 is the one error the browser logs here.
    expect(browser.errors.filter((e) => !e.includes("400"))).toEqual([]);
    await page.close();
  });

  it("speaks Chinese to a Chinese browser, and switches to English on request", async () => {
    const zh = await launchBrowser({ locale: "zh-CN" });
    try {
      const page = await zh.newPage();
      await page.goto(await server.loginLinkFor((await server.createUser("zh-user")).id));
      await page.waitForURL(/\/evaluations\/list$/);
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("评估任务");
      expect(await page.evaluate<string>("document.documentElement.lang")).toBe("zh-CN");
      await shoot(page, "evaluation-list-zh");
      await page.getByRole("button", { name: "Switch the interface to English" }).click();
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("Evaluation runs");
      // The choice is remembered.
      await page.reload();
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("Evaluation runs");
      expect(zh.errors).toEqual([]);
    } finally {
      await zh.close();
    }
  });
});
