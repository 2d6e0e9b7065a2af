import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { type E2eSession, startE2eSession } from "./support/session.js";

// The labelling view in Chromium: a person labels results by keyboard alone, the judges' verdict
// is absent from the page until their label is saved, the labels reach the API, and another user
// finds neither the page nor the API.

let session: E2eSession;
let server: AppServer;
let browser: Browser;
let run = "";
let judged = 0;

interface Label {
  position: number;
  scale: string;
  score: number | null;
  note: string | null;
}

beforeAll(async () => {
  session = await startE2eSession({ botDelayMs: 5 });
  ({ server, browser } = session);
  run = await session.finishedRun("labelled run");
  const next = await server.json<{ labelled: number; unlabelled: number }>(
    `/api/v1/evaluations/${run}/labels/next`,
  );
  judged = next.labelled + next.unlabelled;
}, 120_000);

afterAll(async () => {
  await session?.close();
});

beforeEach(() => {
  browser.errors.length = 0;
});

/** The result shown now: its 0-based position, read from the heading ("… · question #3"). */
async function shownPosition(page: Page): Promise<number> {
  const heading = (await page.locator("#label-item-title").textContent()) ?? "";
  return Number(/#(\d+)/.exec(heading)?.[1]) - 1;
}

async function waitForItem(page: Page, position: number) {
  await expect.poll(() => shownPosition(page)).toBe(position);
  // The new result's heading takes the focus, so the keys go to the page.
  await expect
    .poll(() => page.evaluate<string>("document.activeElement?.id ?? ''"))
    .toBe("label-item-title");
}

const verdict = (page: Page) => page.getByTestId("judge-verdict");

describe("the labelling view", { timeout: 90_000 }, () => {
  it("labels results by keyboard, revealing the judges only after each save", async () => {
    expect(judged).toBeGreaterThan(5);
    const page = await browser.newPage();
    // Every copy of a result the browser receives, to check none carries a verdict too early.
    const received: { judges: unknown; label: unknown }[] = [];
    page.on("response", (response) => {
      if (!response.url().includes("/labels/items/")) return;
      void response.json().then(
        (body: { judges: unknown; label: unknown }) => received.push(body),
        () => undefined,
      );
    });
    await page.goto(`${server.origin}/evaluations/${run}`);
    // Reached from the run's page, and from the secondary navigation while on it.
    expect(await page.getByRole("link", { name: "Label this run" }).getAttribute("href")).toBe(
      `/evaluations/${run}/label`,
    );
    await page.getByRole("link", { name: "Label", exact: true }).click();
    await page.waitForURL(/\/label\?result=[0-9a-f-]{36}$/);
    await waitForItem(page, 0);
    expect(await page.getByTestId("label-progress").textContent()).toBe(`0 of ${judged} labelled`);
    expect(await page.getByTestId("shortcut-help").textContent()).toContain("0 scores 10");

    // Blind: the verdict is not in the page at all, only the notice that it is hidden.
    expect(await verdict(page).count()).toBe(0);
    expect(await page.getByTestId("verdict-hidden").isVisible()).toBe(true);
    await page.keyboard.press("7");
    expect(await page.getByRole("radio", { name: "7", exact: true }).isChecked()).toBe(true);
    expect(await verdict(page).count()).toBe(0);
    // Not even the browser has it: the server sent the result without the judges.
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((item) => item.judges === null && item.label === null)).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => verdict(page).count()).toBe(1);
    await expect.poll(() => received.at(-1)?.judges ?? null).not.toBeNull();
    const shown = (await verdict(page).textContent()) ?? "";
    expect(shown).toContain("offline");
    expect(shown).toMatch(/You\s*7/);
    expect(await page.getByTestId("verdict-hidden").count()).toBe(0);
    await expect
      .poll(() => page.getByTestId("label-progress").textContent())
      .toBe(`1 of ${judged} labelled`);

    // n: the next result, blind again. Typing in the note fires no shortcut.
    await page.keyboard.press("n");
    await waitForItem(page, 1);
    expect(await verdict(page).count()).toBe(0);
    const url = page.url();
    await page.getByLabel("Note (optional)").click();
    await page.keyboard.type("5 n s ? b vague");
    await page.keyboard.press("Enter");
    expect(page.url()).toBe(url);
    expect(await page.getByRole("radio", { checked: true }).count()).toBe(0);
    expect(await verdict(page).count()).toBe(0);
    // Escape leaves the note; 0 scores 10.
    await page.keyboard.press("Escape");
    await page.keyboard.press("0");
    await page.keyboard.press("Enter");
    await expect.poll(() => verdict(page).count()).toBe(1);

    // Enter again moves on to the next unlabelled result; s skips it.
    await page.keyboard.press("Enter");
    await waitForItem(page, 2);
    await page.keyboard.press("s");
    await waitForItem(page, 3);
    await page.keyboard.press("4");
    await page.keyboard.press("Enter");
    await expect.poll(() => verdict(page).count()).toBe(1);

    // Back: the skipped result is still blind; the one before it shows its label and verdict.
    await page.keyboard.press("ArrowLeft");
    await waitForItem(page, 2);
    expect(await verdict(page).count()).toBe(0);
    await page.keyboard.press("b");
    await waitForItem(page, 1);
    expect(await verdict(page).count()).toBe(1);
    expect(await page.getByRole("radio", { name: "10", exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel("Note (optional)").inputValue()).toBe("5 n s ? b vague");

    // ? hides and shows the list of keys.
    await page.keyboard.press("?");
    await expect.poll(() => page.getByTestId("shortcut-help").getAttribute("open")).toBeNull();
    await page.keyboard.press("?");
    await expect.poll(() => page.getByTestId("shortcut-help").getAttribute("open")).toBe("");

    // What was saved is what the API holds.
    const labels = await server.json<{ items: Label[] }>(`/api/v1/evaluations/${run}/labels`);
    expect(labels.items.map((l) => [l.position, l.scale, l.score, l.note])).toEqual([
      [0, "1-10", 7, null],
      [1, "1-10", 10, "5 n s ? b vague"],
      [3, "1-10", 4, null],
    ]);

    // The calibration panel reads the same report the API gives.
    const report = await server.json<{ agreement: { n: number; mae: number } }>(
      `/api/v1/evaluations/${run}/calibration`,
    );
    expect(report.agreement.n).toBe(3);
    const panel = page.getByTestId("calibration-panel");
    await expect.poll(() => panel.getByTestId("calibration-n").textContent()).toBe("3");
    const maeRow = panel.getByTestId("calibration-table").getByRole("row", { name: /^MAE/ });
    expect(await maeRow.locator("td").first().textContent()).toBe(report.agreement.mae.toFixed(2));
    expect(await panel.getByTestId("calibration-verdict").textContent()).toMatch(
      /golden-set check/,
    );

    // The view speaks Chinese too.
    await page.getByRole("button", { name: "Switch the interface to Chinese" }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("标注：labelled run");
    expect(await page.getByTestId("label-progress").textContent()).toBe(`已标注 3 / ${judged}`);
    expect(await page.getByTestId("shortcut-help").textContent()).toContain("0 表示 10 分");
    await page.getByRole("button", { name: "Switch the interface to English" }).click();
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("is not found for another user, in the page and in the API", async () => {
    const mallory = await server.createUser("mallory");
    const item = await server.json<{ result: { id: string } }>(
      `/api/v1/evaluations/${run}/labels/next`,
    );
    const resultId = item.result.id;
    for (const path of [
      `/api/v1/evaluations/${run}/labels/next`,
      `/api/v1/evaluations/${run}/labels/items/${resultId}`,
      `/api/v1/evaluations/${run}/labels`,
      `/api/v1/evaluations/${run}/calibration`,
    ]) {
      expect((await server.api(path, { token: mallory.token })).status, path).toBe(404);
    }
    const put = await server.api(`/api/v1/evaluations/${run}/results/${resultId}/labels/1-10`, {
      method: "PUT",
      json: { score: 1 },
      token: mallory.token,
    });
    expect(put.status).toBe(404);

    const other = await launchBrowser();
    try {
      const page = await other.newPage();
      await page.goto(
        await server.loginLinkFor(mallory.id, `/evaluations/${run}/label?result=${resultId}`),
      );
      await expect
        .poll(() => page.getByTestId("label-not-found").isVisible(), { timeout: 20_000 })
        .toBe(true);
      expect(await page.getByTestId("label-question").count()).toBe(0);
      // The only errors are the 404s the browser logs.
      expect(other.errors.filter((e) => !e.includes("404"))).toEqual([]);
    } finally {
      await other.close();
    }
    // Nothing of mallory's reached alice's run.
    const labels = await server.json<{ items: Label[] }>(`/api/v1/evaluations/${run}/labels`);
    expect(labels.items.every((l) => l.score !== 1)).toBe(true);
  });
});
