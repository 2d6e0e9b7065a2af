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
let lantingId = "";
let setId = "";
let runA = "";
let runB = "";

beforeAll(async () => {
  session = await startE2eSession({ botDelayMs: 5 });
  ({ server, browser, setId } = session);
  lantingId = session.collectionId;
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
    // The members page of the personal workspace: the one member, and a token to make.
    await visit(
      "/members",
      () =>
        page
          .getByTestId("member-row")
          .count()
          .then((n) => n === 1),
      "members",
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

  it("uploads documents by drag and drop, names a bad file, and shows the bot's answer with its sources and drawn diagrams", async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    const foreign: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(server.origin)) foreign.push(request.url());
      if (request.resourceType() === "script") scripts.push(request.url());
    });
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
    // Mermaid is fetched only once there are diagrams to draw.
    expect(scripts.filter((url) => url.includes("mermaid"))).toEqual([]);
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    const answer = page.getByTestId("ask-answer");
    await expect.poll(() => answer.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await answer.textContent()).toContain("25 minutes");
    // Both loops drawn as SVG: the quality loop's and the answer loop's nodes are in them.
    const drawn = (name: string) =>
      answer.locator(`[data-testid="mermaid-diagram"][data-diagram="${name}"] svg`);
    await expect.poll(() => drawn("quality_loop").count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => drawn("answer_loop").count(), { timeout: 30_000 }).toBe(1);
    expect(await drawn("quality_loop").textContent()).toContain("grade_documents");
    expect(await drawn("answer_loop").textContent()).toContain("generate");
    expect(scripts.some((url) => url.includes("mermaid"))).toBe(true);
    await shoot(page, "collections-ask", true);
    // The source is one click away.
    const source = answer.getByTestId("mermaid-source").first();
    expect(await source.isVisible()).toBe(false);
    await answer.getByText("Mermaid source").first().click();
    expect(await source.isVisible()).toBe(true);
    expect(await source.textContent()).toContain("flowchart");
    // Nothing left the app's own origin (no font or script from elsewhere).
    expect(foreign).toEqual([]);
    // The bad upload's 400 is the one error the browser logs here.
    expect(browser.errors.filter((e) => !e.includes("400"))).toEqual([]);
    await page.close();
  });

  it("shows a diagram's Mermaid source with the reason when it cannot be drawn", async () => {
    const page = await browser.newPage();
    // Mermaid's code cannot be fetched: the page falls back to the source.
    await page.route(/\/assets\/mermaid[^/]*\.js$/, (route) => route.abort());
    await page.goto(`${server.origin}/collections?id=${lantingId}`);
    await expect
      .poll(() => page.getByRole("heading", { name: "lanting", level: 2 }).isVisible())
      .toBe(true);
    await page.getByLabel("Question", { exact: true }).fill("Who wrote the Lanting preface?");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    const answer = page.getByTestId("ask-answer");
    await expect.poll(() => answer.isVisible(), { timeout: 30_000 }).toBe(true);
    const failed = answer.getByRole("alert");
    await expect.poll(() => failed.count(), { timeout: 30_000 }).toBe(2);
    expect(await failed.first().textContent()).toContain("could not be drawn");
    expect(await answer.locator('[data-testid="mermaid-diagram"] svg').count()).toBe(0);
    const sources = answer.getByTestId("mermaid-source");
    expect(await sources.count()).toBe(2);
    expect(await sources.first().isVisible()).toBe(true);
    expect(await sources.first().textContent()).toContain("flowchart");
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
      // A finished run in Chinese, for docs/web.md (the new user's own workspace is empty, so the
      // browser takes the session of the user whose runs these are).
      await zh.context.addCookies(await browser.context.cookies());
      await page.goto(`${server.origin}/evaluations/${runA}`);
      await expect
        .poll(() => page.getByTestId("results-count").textContent())
        .toBe("24 条结果中的 24 条");
      await page.getByTestId("chart-radar").waitFor();
      await page.getByTestId("result-card").first().waitFor();
      await shoot(page, "evaluation-detail-zh");
      await page.goto(`${server.origin}/evaluations/list`);
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("评估任务");
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
