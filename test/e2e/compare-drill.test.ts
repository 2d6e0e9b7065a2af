import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser, PHONE } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { lantingCollection, lantingQuestionSet, waitForRun } from "./support/fixtures.js";

// Issue 23 §3: every question row of the compare table opens A's and B's results side by side
// (verdict, answer, cited passages, judges) with a word diff of the answers; j and k move between
// rows (an opened question follows); "Show only changed" survives a reload. Desktop and 390×844.

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
type AnswerLine = { question: string; answer: string } & Record<string, unknown>;
const answersOf = (file: string) =>
  readFileSync(join(EXAMPLES, "arena", file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as AnswerLine);

const SALT = "In which year did the salt merchants";
/** Each run's answer to the salt question cites a passage of its own, named by its title. */
const cite = (lines: AnswerLine[], title: string) =>
  lines.map((line) =>
    line.question.startsWith(SALT)
      ? {
          ...line,
          answer: `${line.answer} [p1]`,
          contexts: [{ node_id: "p1", title, content: "Wei Chenghai's salt beds moved in 1784." }],
          citations: ["p1"],
        }
      : line,
  );

let server: AppServer;
let desktop: Browser;
let phone: Browser;
const runs = { before: "", after: "" };

beforeAll(async () => {
  [server, desktop, phone] = await Promise.all([
    e2eDatabase().then((databaseUrl) => startAppServer({ databaseUrl })),
    launchBrowser(),
    launchBrowser({ phone: true }),
  ]);
  const setId = await lantingQuestionSet(server, await lantingCollection(server));
  for (const [key, file, title] of [
    ["before", "verbose.jsonl", "Harbour chronicle"],
    ["after", "terse.jsonl", "Salt trade ledger"],
  ] as const) {
    const run = await server.json<{ id: string }>("/api/v1/evaluations", {
      method: "POST",
      json: {
        name: key,
        question_set_id: setId,
        judges: ["offline"],
        answers: cite(answersOf(file), title),
      },
    });
    expect(await waitForRun(server, run.id)).toBe("COMPLETED");
    runs[key] = run.id;
  }
  const page = await desktop.newPage();
  await page.goto(server.loginUrl);
  await page.waitForURL(/\/evaluations\/list$/);
  await page.close();
  await phone.context.addCookies(await desktop.context.cookies());
}, 180_000);

afterAll(async () => {
  await Promise.all([desktop?.close(), phone?.close()]);
  await server?.stop();
});

const comparePath = () => `/evaluations/compare?base=${runs.before}&head=${runs.after}`;

/** The question of each row of the table, in order, and which row the drill-down follows. */
async function tableState(page: Page) {
  return page.evaluate(`(() => {
    const rows = [...document.querySelectorAll("[data-testid=compare-table] tbody tr")];
    const questions = rows.filter((r) => r.dataset.testid === "compare-row")
      .map((r) => r.children[1].textContent);
    const drill = rows.findIndex((r) => r.dataset.testid === "compare-drill-row");
    const current = rows.find((r) => r.dataset.current !== undefined);
    return {
      questions,
      openedAfter: drill > 0 ? rows[drill - 1].children[1].textContent : null,
      current: current ? current.children[1].textContent : null,
    };
  })()`) as Promise<{ questions: string[]; openedAfter: string | null; current: string | null }>;
}

async function openSalt(page: Page) {
  await page.goto(`${server.origin}${comparePath()}`);
  const row = page.getByTestId("compare-row").filter({ hasText: SALT });
  await expect.poll(() => row.count()).toBe(1);
  await row.getByRole("button", { name: /^Open question \d+: both answers$/ }).click();
  const drill = page.getByTestId("compare-drill");
  await expect.poll(() => drill.getByTestId("compare-diff").isVisible()).toBe(true);
  return drill;
}

describe("the compare drill-down", { timeout: 120_000 }, () => {
  it("opens both results side by side with verdicts, citations and the answers' word diff", async () => {
    const page = await desktop.newPage();
    const drill = await openSalt(page);
    const sides = drill.getByTestId("compare-side");
    expect(await sides.count()).toBe(2);
    // Each side: the run, the verdict in words, its answer and its own cited passage by title.
    const [a, b] = [sides.nth(0), sides.nth(1)];
    expect(await a.getByRole("heading", { level: 3 }).textContent()).toBe("A · before");
    expect(await b.getByRole("heading", { level: 3 }).textContent()).toBe("B · after");
    for (const side of [a, b]) {
      expect(await side.getByTestId("verdict-headline").isVisible()).toBe(true);
      expect(await side.getByText("offline", { exact: true }).count()).toBeGreaterThan(0);
    }
    expect(await a.getByTestId("compare-citations").textContent()).toBe("Harbour chronicle");
    expect(await b.getByTestId("compare-citations").textContent()).toBe("Salt trade ledger");
    expect(await a.textContent()).toContain("Lanting is a coastal city");
    // The diff: the verbose run's padding struck out, the shared year kept.
    const diff = drill.getByTestId("compare-diff");
    const removed = (await diff.locator("del").allTextContents()).join("");
    const added = (await diff.locator("ins").allTextContents()).join("");
    expect(removed).toContain("Lanting is a coastal city with a long and eventful history.");
    expect(removed).toContain("I hope this helps");
    expect(added).toBe("");
    expect(await diff.textContent()).toContain("In 1784.");
    expect(desktop.errors).toEqual([]);
    await page.close();
  });

  it("moves between rows with j and k, the opened question following", async () => {
    const page = await desktop.newPage();
    await openSalt(page);
    const before = await tableState(page);
    const at = before.questions.findIndex((q) => q.startsWith(SALT));
    expect(before.openedAfter).toBe(before.questions[at]);
    expect(before.current).toBe(before.questions[at]);
    await page.keyboard.press("j");
    await expect
      .poll(async () => (await tableState(page)).openedAfter)
      .toBe(before.questions[at + 1]);
    expect((await tableState(page)).current).toBe(before.questions[at + 1]);
    // The newly opened question's results are the ones shown.
    await expect
      .poll(() =>
        page.getByTestId("compare-drill").getByTestId("compare-side").first().textContent(),
      )
      .not.toContain("Harbour chronicle");
    await page.keyboard.press("k");
    await page.keyboard.press("k");
    await expect
      .poll(async () => (await tableState(page)).current)
      .toBe(before.questions[Math.max(at - 1, 0)]);
    // Typing in a field is not a key press for the table.
    await page.getByLabel("Base (A)").focus();
    const held = (await tableState(page)).current;
    await page.keyboard.press("j");
    expect((await tableState(page)).current).toBe(held);
    expect(desktop.errors).toEqual([]);
    await page.close();
  });

  it("keeps “Show only changed” in the address, through a reload", async () => {
    const page = await desktop.newPage();
    await page.goto(`${server.origin}${comparePath()}`);
    const rows = page.getByTestId("compare-row");
    await expect.poll(() => rows.count()).toBe(24);
    await page.getByLabel("Show only changed").check();
    await expect.poll(() => new URL(page.url()).searchParams.get("changed")).toBe("true");
    const changed = await rows.count();
    expect(changed).toBeLessThan(24);
    await page.reload();
    await expect.poll(() => rows.count()).toBe(changed);
    expect(await page.getByLabel("Show only changed").isChecked()).toBe(true);
    await page.close();
  });

  it("fits a phone's screen: the opened question stacks A over B and never widens the page", async () => {
    const page = await phone.newPage();
    const drill = await openSalt(page);
    const sides = drill.getByTestId("compare-side");
    const [a, b] = [await sides.nth(0).boundingBox(), await sides.nth(1).boundingBox()];
    expect(b!.y).toBeGreaterThanOrEqual(a!.y + a!.height);
    // Inside the table's scrolling box, so nothing of it is clipped (the verdict's box included).
    const frame = (await page
      .locator(".table-scroll", { has: page.getByTestId("compare-table") })
      .boundingBox())!;
    const verdict = (await sides.nth(0).getByTestId("verdict-headline").boundingBox())!;
    for (const box of [a!, b!, verdict]) {
      expect(box.x).toBeGreaterThanOrEqual(frame.x);
      expect(box.x + box.width).toBeLessThanOrEqual(Math.min(PHONE.width, frame.x + frame.width));
    }
    const widths = (await page.evaluate(
      "({ inner: innerWidth, page: document.scrollingElement.scrollWidth })",
    )) as { inner: number; page: number };
    expect(widths.page).toBeLessThanOrEqual(widths.inner);
    expect(phone.errors).toEqual([]);
    await page.close();
  });
});
