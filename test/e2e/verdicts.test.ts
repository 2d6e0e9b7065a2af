import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServer } from "./support/app-server.js";
import { type Browser, PHONE } from "./support/browser.js";
import { type E2eSession, startE2eSession } from "./support/session.js";

// Issue 23 §2, in the browser: a result's verdict explains itself. One headline with the rule in
// words, each judge on its own scale, failing gate checks in sentences, numbered citation chips.

let session: E2eSession;
let server: AppServer;
let browser: Browser;
let builtinRun = "";
let httpRun = "";
let weakBot: Server;

/**
 * A bot whose answers the gate fails: two of three sentences have no support in the passage they
 * cite, and one cites a passage it did not retrieve.
 */
async function startWeakBot(): Promise<string> {
  weakBot = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          answer:
            "The Great Fire began in a rope store on Lower Quay Street [a#1]. Residents celebrate the rebuilding every spring with lantern parades [a#1]. The mayor rebuilt the harbour with money from the salt tax [z#9].",
          citations: ["a#1", "z#9"],
          contexts: [
            {
              node_id: "a#1",
              content:
                "On the night of 14 October 1869 a fire started in a rope store on Lower Quay Street.",
              score: 0.9,
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => weakBot.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(weakBot.address() as AddressInfo).port}/ask`;
}

beforeAll(async () => {
  session = await startE2eSession({ botDelayMs: 0 });
  ({ server, browser } = session);
  const weakUrl = await startWeakBot();
  [builtinRun, httpRun] = await Promise.all([
    session.finishedRun("built-in bot"),
    session.finishedRun("weak bot", { kind: "http", url: weakUrl }),
  ]);
}, 180_000);

afterAll(async () => {
  weakBot?.close();
  await session?.close();
});

beforeEach(() => {
  browser.errors.length = 0;
});

/** Opens the first card the filter leaves and waits for the result in full. */
async function openFirstCard(
  run: string,
  search: string,
  size?: { width: number; height: number },
) {
  const page = await browser.newPage();
  if (size) await page.setViewportSize(size);
  await page.goto(`${server.origin}/evaluations/${run}?${search}`);
  const card = page.getByTestId("result-card").first();
  await card.waitFor();
  await card.getByRole("button", { name: /Details|详情/ }).click();
  await card.getByTestId("result-detail").waitFor();
  return { page, card };
}

describe("verdicts that explain themselves", { timeout: 90_000 }, () => {
  it("heads a failed result with who failed it, how its score is formed and what the gate means", async () => {
    const { page, card } = await openFirstCard(builtinRun, "outcome=failed&gate=pass");
    const headline = card.getByTestId("verdict-headline");
    expect(await headline.textContent()).toContain("Failed: the offline judge failed this answer.");
    expect(await headline.textContent()).toContain(
      "A result passes when every judge passes it and the gate does not say fail.",
    );
    expect(await headline.textContent()).toMatch(
      /\d\.\d\d on a 0–1 scale, is the mean of the judges' scores/,
    );
    expect(await headline.textContent()).toContain(
      "Gate pass: every claim is backed by the passages it cites.",
    );

    // One scale per view: the judge on its own scale, the card's 0–1 score labelled as such.
    expect(await card.getByTestId("judge-own-score").first().textContent()).toMatch(
      /^\d+(\.\d)? \/ 10 $/,
    );
    expect(await card.getByTestId("result-detail").textContent()).not.toMatch(/\d\.\d\d \(\d/);
    expect(await card.getByTestId("card-score").textContent()).toMatch(
      /^Score \d\.\d\d \(0–1, for comparing runs\)$/,
    );

    // Citation chips are numbered, the passage's title on hover, never an internal id.
    const chips = card.locator("button.citation");
    expect(await chips.count()).toBeGreaterThan(0);
    for (const text of await chips.allTextContents()) expect(text).toMatch(/^\[\d+\]$/);
    const title = await chips.first().getAttribute("title");
    expect(title).toMatch(/^Passage \d+: /);
    expect(title).not.toContain("doc_");
    await chips.first().click();
    expect(await card.getByTestId("passage").textContent()).toMatch(/^Passage \[\d+\]/);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("words failing gate checks as sentences, never as JSON", async () => {
    const { page, card } = await openFirstCard(httpRun, "gate=fail");
    const checks = await card.getByTestId("failing-check").allTextContents();
    expect(checks).toContain(
      "fail 2 of 3 sentences have no support in the cited passages (needed 2 supported).",
    );
    expect(
      checks.some((text) => /cited passages are not among the retrieved ones: z#9\.$/.test(text)),
    ).toBe(true);
    for (const text of checks) expect(text).not.toMatch(/[{}"]/);
    expect(await card.getByTestId("verdict-headline").textContent()).toContain("the gate");
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("says it all in Chinese, and fits a 390×844 phone", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/list`);
    await page.evaluate('localStorage.setItem("ragjudge.language", "zh")');
    await page.close();
    const opened = await openFirstCard(builtinRun, "outcome=failed&gate=pass", PHONE);
    const headline = opened.card.getByTestId("verdict-headline");
    expect(await headline.textContent()).toContain("未通过：离线评判判定该回答不通过。");
    expect(await headline.textContent()).toContain("门控通过：每个论断都有所引段落的依据。");
    expect(await opened.card.getByTestId("card-score").textContent()).toContain(
      "0–1，用于比较评估",
    );
    const title = await opened.card.locator("button.citation").first().getAttribute("title");
    expect(title).toMatch(/^段落 \d+：/);
    const overflow = await opened.page.evaluate<number>(
      "document.scrollingElement.scrollWidth - window.innerWidth",
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await opened.page.evaluate('localStorage.removeItem("ragjudge.language")');
    expect(browser.errors).toEqual([]);
    await opened.page.close();
  });
});
