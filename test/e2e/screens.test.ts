import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppServer } from "./support/app-server.js";
import { type Browser, launchBrowser, PHONE } from "./support/browser.js";
import { shoot } from "./support/screenshots.js";
import { type E2eSession, startE2eSession } from "./support/session.js";

// Issue 23 §1.2: every page on a phone's screen (390×844) and on a desktop's, with no sideways
// scrolling of the page and the top bar's controls inside the bar. With RAGJUDGE_SCREENSHOTS=DIR
// (`npm run screenshots`), the run list and a run's results on the phone are saved for docs/web.md.

let session: E2eSession;
let server: AppServer;
let desktop: Browser;
let phone: Browser;
let setId = "";
let runA = "";
let runB = "";
let arenaId = "";

beforeAll(async () => {
  session = await startE2eSession({ botDelayMs: 5 });
  ({ server, setId } = session);
  desktop = session.browser;
  [runA, runB, phone] = await Promise.all([
    session.finishedRun("built-in bot", { kind: "builtin" }),
    session.finishedRun("echo bot over HTTP", { kind: "http", url: session.bot.url }),
    launchBrowser({ phone: true }),
  ]);
  const arena = await server.json<{ id: string }>("/api/v1/arenas", {
    method: "POST",
    json: {
      name: "two runs",
      question_set_id: setId,
      contestants: [
        { name: "built-in", evaluation_id: runA },
        { name: "echo", evaluation_id: runB },
      ],
      rounds: 200,
    },
  });
  arenaId = arena.id;
  await vi.waitFor(
    async () => {
      const { status } = await server.json<{ status: string }>(`/api/v1/arenas/${arenaId}`);
      if (status !== "COMPLETED") throw new Error(`arena ${status}`);
    },
    { timeout: 60_000, interval: 250 },
  );
  // A second workspace puts the workspace switcher in the top bar.
  await server.json("/api/v1/workspaces", {
    method: "POST",
    json: { name: "Lanting evaluation team" },
  });
  // The phone shares the desktop's session.
  await phone.context.addCookies(await desktop.context.cookies());
}, 180_000);

afterAll(async () => {
  await phone?.close();
  await session?.close();
});

beforeEach(() => {
  desktop.errors.length = 0;
  phone.errors.length = 0;
});

interface Layout {
  innerWidth: number;
  scrollWidth: number;
  /** The top bar's links and buttons that stick out of the bar. */
  outsideHeader: string[];
  /** Elements reaching past the screen's right edge that no box of their own scrolls. */
  overflowing: string[];
}

// Runs in the page (this file is compiled without the DOM's types, so it is a string).
const measure = (width: number) => `(() => {
  const name = (el) =>
    el.tagName.toLowerCase() +
    (el.dataset.testid ? "[" + el.dataset.testid + "]" : "") +
    (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "") +
    " " + JSON.stringify((el.textContent || "").trim().slice(0, 30));
  const header = document.querySelector("header").getBoundingClientRect();
  const outsideHeader = [...document.querySelectorAll("header a, header button")]
    .filter((el) => {
      const r = el.getBoundingClientRect();
      return r.left < header.left - 0.5 || r.right > header.right + 0.5 ||
        r.top < header.top - 0.5 || r.bottom > header.bottom + 0.5;
    })
    .map(name);
  const scrolls = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x === "auto" || x === "scroll" || x === "hidden" || x === "clip") return true;
    }
    return false;
  };
  const overflowing = [...document.body.querySelectorAll("*")]
    .filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.right > ${width} + 0.5 && !scrolls(el);
    })
    .map(name)
    .slice(0, 5);
  return {
    innerWidth,
    scrollWidth: document.scrollingElement.scrollWidth,
    outsideHeader,
    overflowing,
  };
})()`;

/** The page's layout, measured against the screen's width (a phone zooms out a wider page). */
async function layoutOf(page: Page, width: number): Promise<Layout> {
  return page.evaluate<Layout>(measure(width));
}

/** Every page of the app, each with what shows it is ready. */
function pages(): { path: string; ready: (page: Page) => Promise<boolean> }[] {
  const heading = (name: string) => (page: Page) =>
    page.getByRole("heading", { name, level: 1 }).isVisible();
  const count = (testId: string, n: number) => (page: Page) =>
    page
      .getByTestId(testId)
      .count()
      .then((c) => c === n);
  return [
    { path: "/evaluations/list", ready: count("evaluation-row", 2) },
    { path: "/evaluations/new", ready: heading("New evaluation") },
    { path: `/evaluations/${runA}`, ready: (page) => page.getByTestId("chart-radar").isVisible() },
    {
      path: `/evaluations/${runA}/label`,
      ready: (page) => page.getByTestId("verdict-hidden").isVisible(),
    },
    { path: `/evaluations/compare?base=${runA}&head=${runB}`, ready: count("compare-row", 24) },
    { path: "/evaluations/question-sets", ready: count("question-set-row", 1) },
    { path: "/evaluations/question-sets/new", ready: heading("New question set") },
    {
      path: `/evaluations/question-sets/${setId}`,
      ready: (page) => page.getByTestId("chart-trend").isVisible(),
    },
    {
      path: "/collections",
      ready: (page) => page.getByRole("heading", { name: "lanting", level: 2 }).isVisible(),
    },
    { path: "/arenas", ready: heading("Arenas") },
    { path: "/arenas/new", ready: heading("New arena") },
    { path: `/arenas/${arenaId}`, ready: (page) => page.getByTestId("ratings-table").isVisible() },
    { path: "/production/answers", ready: heading("Production answers") },
    { path: "/production/ingest-keys", ready: heading("Ingest keys") },
    { path: "/production/alerts", ready: heading("Alerts") },
    {
      path: "/members",
      ready: async (page) =>
        (await page.getByTestId("member-row").count()) === 1 &&
        (await page.getByTestId("workspace-switcher").isVisible()),
    },
    { path: "/login", ready: (page) => page.getByLabel("API token").isVisible() },
  ];
}

async function walk(browser: Browser, width: number) {
  const page = await browser.newPage();
  const seen: Record<string, Layout> = {};
  for (const { path, ready } of pages()) {
    await page.goto(`${server.origin}${path}`);
    await expect.poll(() => ready(page), { timeout: 20_000 }).toBe(true);
    // Lazy charts and late rows settle before the page is measured.
    await page.waitForLoadState("networkidle");
    seen[path] = await layoutOf(page, width);
  }
  const want = (layout: Layout) => ({
    innerWidth: width,
    scrollWidth: Math.min(layout.scrollWidth, width),
    outsideHeader: [],
    overflowing: [],
  });
  const wanted = Object.fromEntries(Object.entries(seen).map(([path, l]) => [path, want(l)]));
  expect(seen).toEqual(wanted);
  expect(browser.errors).toEqual([]);
  return page;
}

describe("every page on a phone and on a desktop", { timeout: 180_000 }, () => {
  it("fits a 390×844 phone: no sideways scrolling, the top bar's controls inside the bar", async () => {
    const page = await walk(phone, PHONE.width);
    // The run list's wide table scrolls inside its own box, not the page.
    await page.goto(`${server.origin}/evaluations/list`);
    await page.getByTestId("evaluation-row").first().waitFor();
    const box = await page.evaluate<{ overflowX: string; scrolls: boolean }>(`(() => {
      const box = document.querySelector("table").parentElement;
      return { overflowX: getComputedStyle(box).overflowX, scrolls: box.scrollWidth > box.clientWidth };
    })()`);
    expect(box).toEqual({ overflowX: "auto", scrolls: true });
    await shoot(page, "evaluation-list-phone");
    // In Chinese too (other labels, other widths), then back to English for the other tests.
    await page.getByRole("button", { name: "Switch the interface to Chinese" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("评估任务");
    const zh = await layoutOf(page, PHONE.width);
    await page.getByRole("button", { name: "Switch the interface to English" }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("Evaluation runs");
    expect(zh).toEqual({
      innerWidth: PHONE.width,
      scrollWidth: PHONE.width,
      outsideHeader: [],
      overflowing: [],
    });
    // The labelling view's scale select stays on the screen.
    await page.goto(`${server.origin}/evaluations/${runA}/label`);
    const scale = page.getByLabel("Scale");
    await scale.waitFor();
    const select = await scale.boundingBox();
    expect(select!.x + select!.width).toBeLessThanOrEqual(PHONE.width);
    await page.close();
  });

  it("fits a desktop window the same way", async () => {
    const page = await walk(desktop, 1360);
    await page.close();
  });
});

/** Elements in the page, other than the page itself, that scroll up and down. */
const INNER_SCROLLERS = `[...document.querySelectorAll("main *")]
  .filter((el) => {
    const y = getComputedStyle(el).overflowY;
    return (y === "auto" || y === "scroll") && el.scrollHeight > el.clientHeight + 1;
  })
  .map((el) => el.tagName.toLowerCase() + (el.dataset.testid ? "[" + el.dataset.testid + "]" : ""))`;

/** An opened card's box against its row's and the next row's: is any of it cut off or covered? */
const CARD_BOX = `(() => {
  const card = document.querySelector('[data-testid="result-card"][aria-label^="1. "]');
  const row = card.closest('[role="listitem"]');
  const next = row.nextElementSibling;
  const passage = card.querySelector('[data-testid="passage"]').getBoundingClientRect();
  const box = card.getBoundingClientRect();
  // A box around the card, shorter than the card, that hides the rest of it.
  let cutBy = null;
  for (let p = card.parentElement; p && p !== document.body && !cutBy; p = p.parentElement) {
    if (getComputedStyle(p).overflowY !== "visible" && p.clientHeight < box.height) cutBy = p.dataset.testid || p.tagName;
  }
  return {
    cutBy,
    rowClipsHeight: row.scrollHeight > row.clientHeight + 1,
    rowClipsWidth: row.scrollWidth > row.clientWidth + 1,
    passageInCard: passage.bottom <= box.bottom + 0.5 && passage.right <= box.right + 0.5,
    nextRowBelow: next ? next.getBoundingClientRect().top >= box.bottom - 0.5 : true,
  };
})()`;

describe("the results list", { timeout: 120_000 }, () => {
  for (const which of ["desktop", "phone"] as const) {
    it(`scrolls with the page on a ${which}: one scrollbar, still virtualized, an opened card whole`, async () => {
      const browser = which === "phone" ? phone : desktop;
      const page = await browser.newPage();
      await page.goto(`${server.origin}/evaluations/${runA}`);
      await expect
        .poll(() => page.getByTestId("results-count").textContent())
        .toBe("24 of 24 results");
      await page.getByTestId("result-card").first().waitFor();
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate<string[]>(INNER_SCROLLERS)).toEqual([]);
      // Only the cards near the view are in the page; scrolling the page brings the last one.
      expect(await page.getByTestId("result-card").count()).toBeLessThan(24);
      const card = (n: number) => page.locator(`[data-testid="result-card"][aria-label^="${n}. "]`);
      expect(await card(24).count()).toBe(0);
      await page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)");
      await expect.poll(() => card(24).count()).toBe(1);
      expect(await card(1).count()).toBe(0);
      await page.evaluate("window.scrollTo(0, 0)");
      await expect.poll(() => card(1).count()).toBe(1);
      // The first card opened with its first cited passage: nothing of it is cut off or covered.
      await card(1).getByRole("button", { name: "Details" }).click();
      await card(1).locator("button.citation").first().click();
      await card(1).getByTestId("passage").waitFor();
      await expect
        .poll(() => page.evaluate(CARD_BOX))
        .toEqual({
          cutBy: null,
          rowClipsHeight: false,
          rowClipsWidth: false,
          passageInCard: true,
          nextRowBelow: true,
        });
      if (which === "phone") {
        await page.getByTestId("results-count").scrollIntoViewIfNeeded();
        await shoot(page, "evaluation-detail-phone");
      }
      // The page, not a box inside it, scrolls to the card's end.
      expect(await page.evaluate<string[]>(INNER_SCROLLERS)).toEqual([]);
      expect(browser.errors).toEqual([]);
      await page.close();
    });
  }
});

describe("the results' filters", { timeout: 120_000 }, () => {
  it("says which filter emptied the list, names a refused value beside its field, and keeps plain values in the URL", async () => {
    const page = await desktop.newPage();
    const asked: string[] = [];
    page.on("request", (request) => {
      if (/\/results\?/.test(request.url())) asked.push(new URL(request.url()).search);
    });
    await page.goto(`${server.origin}/evaluations/${runA}`);
    const count = page.getByTestId("results-count");
    await expect.poll(() => count.textContent()).toBe("24 of 24 results");
    const empty = page.getByTestId("results-empty");

    // A search nothing matches: the list says so, naming the search, and the search can go.
    await page.getByLabel("Search questions and answers").fill("zebra crossing");
    await page.waitForURL(/q=zebra\+crossing/);
    await expect
      .poll(() => empty.textContent())
      .toContain("No result matches the search “zebra crossing”.");
    expect(await page.getByTestId("result-card").count()).toBe(0);
    await page
      .getByRole("button", { name: "Remove the filter the search “zebra crossing”" })
      .click();
    await expect.poll(() => count.textContent()).toBe("24 of 24 results");
    expect(page.url()).not.toContain("q=");

    // A score on the judge's own scale is refused beside its field; the field keeps it, the URL
    // and the list do not change, and no request is made with it.
    const from = page.getByLabel("Score from");
    const before = asked.length;
    await from.fill("5");
    const describedBy = await from.getAttribute("aria-describedby");
    expect(await from.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain(
      "Enter a score from 0 to 1",
    );
    expect(await from.inputValue()).toBe("5");
    expect(page.url()).not.toContain("min=");
    expect(await count.textContent()).toBe("24 of 24 results");

    // A usable bound is applied, written plainly in the URL.
    const { total } = await server.json<{ total: number }>(
      `/api/v1/evaluations/${runA}/results?score_min=0.5&passed=false&limit=1`,
    );
    await from.fill("0.5");
    await page.waitForURL(/min=0\.5/);
    expect(await from.getAttribute("aria-invalid")).toBeNull();
    await page.getByLabel("Outcome").selectOption("failed");
    await page.waitForURL(/outcome=failed/);
    expect(new URL(page.url()).search).toBe("?outcome=failed&min=0.5");
    await expect.poll(() => count.textContent()).toBe(`${total} of 24 results`);
    // Requests go in order: had the refused 5 been asked for, it would be here by now.
    expect(asked.slice(before).filter((s) => s.includes("score_min=5"))).toEqual([]);
    expect(asked.slice(before).some((s) => s.includes("score_min=0.5"))).toBe(true);

    // A link from before, with JSON-quoted values, opens the same view.
    await page.goto(`${server.origin}/evaluations/${runA}?min=%220.5%22&outcome=%22failed%22`);
    await expect.poll(() => count.textContent()).toBe(`${total} of 24 results`);
    expect(await page.getByLabel("Score from").inputValue()).toBe("0.5");
    expect(await page.getByLabel("Outcome").inputValue()).toBe("failed");

    // Two filters that together match nothing: both are named, each can be removed.
    await page.getByLabel("Search questions and answers").fill("zebra crossing");
    await expect
      .poll(() => empty.textContent())
      .toContain("No result matches all of these filters");
    for (const phrase of ["Outcome: Failed", "Score from 0.5", "the search “zebra crossing”"]) {
      expect(await empty.textContent()).toContain(phrase);
    }

    // What the server refuses (a search longer than it takes) is said beside the search field.
    const search = page.getByLabel("Search questions and answers");
    await search.fill("x".repeat(501));
    await expect.poll(() => search.getAttribute("aria-invalid")).toBe("true");
    const searchError = page.locator(`[id="${await search.getAttribute("aria-describedby")}"]`);
    expect(await searchError.textContent()).toMatch(/500/);
    expect(await page.getByTestId("result-card").count()).toBe(0);
    // The refused request is the one error the browser logs.
    expect(desktop.errors.filter((e) => !e.includes("400"))).toEqual([]);
    await page.close();
  });
});

/** WCAG's contrast ratio of two `rgb(r, g, b)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/\d+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe("forms", { timeout: 120_000 }, () => {
  it("chooses a lone collection or question set for the person", async () => {
    const page = await desktop.newPage();
    await page.goto(`${server.origin}/evaluations/new`);
    await expect.poll(() => page.getByLabel("Question set").inputValue()).toBe(setId);
    await expect
      .poll(() => page.getByLabel("Collection the built-in bot answers from").inputValue())
      .toBe(session.collectionId);
    await page.goto(`${server.origin}/arenas/new`);
    await expect.poll(() => page.getByLabel("Question set").inputValue()).toBe(setId);
    await page.goto(`${server.origin}/evaluations/question-sets/new`);
    await page.getByRole("button", { name: "Generate from a collection" }).click();
    await expect
      .poll(() => page.getByRole("dialog").getByLabel("Collection").inputValue())
      .toBe(session.collectionId);
    expect(desktop.errors).toEqual([]);
    await page.close();
  });

  it("shows a disabled button as one, not as an empty text field", async () => {
    const page = await desktop.newPage();
    await page.goto(`${server.origin}/evaluations/list`);
    const button = page.getByRole("button", { name: "Compare the two selected" });
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
    const style = (selector: string) =>
      page.evaluate<{ background: string; border: string; color: string }>(`(() => {
        const s = getComputedStyle(document.querySelector(${JSON.stringify(selector)}));
        return { background: s.backgroundColor, border: s.borderTopStyle, color: s.color };
      })()`);
    const disabled = await style("button:disabled");
    const field = await style("main select");
    expect(disabled.background).not.toBe(field.background);
    expect(disabled.border).not.toBe(field.border);
    expect(contrast(disabled.color, disabled.background)).toBeGreaterThanOrEqual(4.5);
    // Ticking two runs enables it as a link.
    // (The button shows before the list has loaded: wait for the rows.)
    const rows = page.getByTestId("evaluation-row").getByRole("checkbox");
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    const boxes = await rows.all();
    for (const box of boxes.slice(0, 2)) await box.check();
    expect(await page.getByRole("link", { name: "Compare the two selected" }).count()).toBe(1);
    await page.close();
  });

  it("puts a field's error on its own line under the field", async () => {
    const page = await desktop.newPage();
    await page.goto(`${server.origin}/evaluations/new`);
    await page.getByLabel("Question set").selectOption(setId);
    await page
      .getByLabel("Collection the built-in bot answers from")
      .selectOption(session.collectionId);
    // No judge: the error goes under the row of judges, not beside the last one.
    await page.getByRole("checkbox", { name: "offline", exact: true }).uncheck();
    await page.getByRole("button", { name: "Start the evaluation" }).click();
    const error = page.locator("#err-judges");
    await expect.poll(() => error.textContent()).toBe("Choose at least one judge");
    const judges = await page.evaluate<number[]>(
      `[...document.querySelectorAll('input[name="judges"]')].map(
        (box) => box.closest("label").getBoundingClientRect().bottom)`,
    );
    const top = (await error.boundingBox())!.y;
    expect(top).toBeGreaterThanOrEqual(Math.max(...judges));
    await page.close();
  });
});
