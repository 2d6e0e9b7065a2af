import { sql } from "drizzle-orm";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { judgeFailure } from "../../src/judges/index.js";
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
    expect(await card.getByTestId("card-verdict").textContent()).toBe(
      "A judge failed it; the gate checks only that its claims are backed by the passages it cites.",
    );
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

  it("words the built-in bot's loop steps in Chinese, not as the developer's key=value lines", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/list`);
    await page.evaluate('localStorage.setItem("ragjudge.language", "zh")');
    await page.close();
    const { page: opened, card } = await openFirstCard(builtinRun, "");
    await card.getByTestId("result-detail").getByText("循环轨迹").click();
    const steps = card.getByTestId("trace-summary");
    await expect.poll(() => steps.count()).toBeGreaterThanOrEqual(5);
    const words = await steps.allTextContents();
    expect(words[0]).toMatch(/^检索 .+，优先 /);
    expect(words.at(-1)).toMatch(/^门控/);
    for (const line of words) expect(line).not.toMatch(/\w=|[A-Z][a-z]+ the /);
    await opened.evaluate('localStorage.removeItem("ragjudge.language")');
    expect(browser.errors).toEqual([]);
    await opened.close();
  });

  it("words judge errors as sentences grouped by kind, the raw replies behind details", async () => {
    const base = { language: "en" as const, model: "m", calls: [] };
    const dump = '[{"code":"invalid_type","path":["score"],"message":"Required"}]';
    const judges = {
      rubric: judgeFailure(
        { name: "rubric", ...base },
        { message: `reply did not match: ${dump}`, cause: "reply", retryable: true, raw: [dump] },
      ),
      reference: judgeFailure(
        { name: "reference", ...base },
        { message: "not JSON", cause: "reply", retryable: true, raw: ["{"] },
      ),
      review: judgeFailure(
        { name: "review", ...base },
        { message: "timed out after 60 s", cause: "LlmTimeoutError", retryable: true, raw: [] },
      ),
    };
    await server.store.db.execute(sql`
      update evaluation_results
      set status = 'JUDGE_ERROR', score = null, passed = null, error = 'judges failed',
          judges = ${JSON.stringify(judges)}::jsonb
      where evaluation_id = ${builtinRun} and position = 1`);
    const { page, card } = await openFirstCard(builtinRun, "status=JUDGE_ERROR");
    const errors = card.getByTestId("judge-errors");
    expect(await errors.getByTestId("judge-error-group").allTextContents()).toEqual([
      "2 × the rubric judge, the reference judge: the model's reply was unusable (not JSON, or not the expected shape).",
      "1 × the review judge: the model did not answer in time.",
    ]);
    // The validation dump is there, but only behind the toggle.
    expect(await errors.locator("pre").first().isVisible()).toBe(false);
    await errors.locator("summary").click();
    expect(await errors.locator("pre").first().textContent()).toBe(dump);
    expect(await card.getByTestId("verdict-headline").textContent()).toContain(
      "Not scored: Judge error.",
    );
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("reasons truly offline: no false contradiction, the snack answered with the snack", async () => {
    // The reference reads "… rebuilt in grey brick by 1875": an answer saying 1875 contradicts
    // nothing (it used to read "contradicts the reference: 1875 where the reference says 1870").
    const brick = await openFirstCard(builtinRun, `q=${encodeURIComponent("built of grey brick")}`);
    const detail = await brick.card.getByTestId("result-detail").textContent();
    expect(detail).toContain("1875");
    expect(detail).not.toContain("where the reference says");
    await brick.page.close();
    // 澜汀最有名的小吃是什么？ used to be answered with the salt-lantern festival.
    const snack = await openFirstCard(builtinRun, `q=${encodeURIComponent("最有名的小吃")}`);
    const answer = await snack.card
      .getByTestId("result-detail")
      .locator("section")
      .nth(1)
      .textContent();
    expect(answer).toContain("最有名的小吃是蟹黄盐饼");
    expect(browser.errors).toEqual([]);
    await snack.page.close();
  });

  it("draws the loops with the path a built-in bot answer took; an HTTP bot's result has none", async () => {
    const { page, card } = await openFirstCard(builtinRun, "");
    const diagrams = card.getByTestId("loop-diagrams");
    await diagrams.locator("summary").click();
    const drawn = (name: string) =>
      diagrams.locator(`[data-testid="mermaid-diagram"][data-diagram="${name}"] svg`);
    await expect.poll(() => drawn("quality_loop").count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => drawn("answer_loop").count(), { timeout: 30_000 }).toBe(1);
    expect(await drawn("quality_loop").textContent()).toContain("grade_documents");
    // The path taken is highlighted, as on the Ask page.
    const sources = await diagrams.getByTestId("mermaid-source").allTextContents();
    for (const source of sources) expect(source).toContain("class ");
    expect(browser.errors).toEqual([]);
    await page.close();

    const http = await openFirstCard(httpRun, "");
    expect(await http.card.getByTestId("loop-diagrams").count()).toBe(0);
    await http.page.close();
  });
});
