import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EvaluationCheck, explainCheck } from "../../src/gate/index.js";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser, PHONE } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { shoot } from "./support/screenshots.js";

// Issue 24 §3 in real Chromium against a real `ragjudge serve`: the production answer list with
// its filters in the URL, one answer (its checks in words, its citations linked to the hits they
// name, feedback added and shown), "Add to question set", and the ingest-keys page (a key shown
// once, then revoked), on a desktop window and on a 390×844 phone.

let server: AppServer;
let desktop: Browser;
let phone: Browser;

const HIT_1 = "The Lanting bridge was built in 1870 by the river guild.";
const HIT_2 = "Tickets to the bridge museum cost 12 yuan.";

function answer(tag: string, message: string, text: string, extra: Record<string, unknown>) {
  return {
    conversation_id: `conv-${tag}`,
    message_id: message,
    retrieval_record: {
      id: `r-${message}`,
      query: `When was the bridge built? (${tag} ${message})`,
    },
    retrieval_hits: [
      { node_id: "n1", content: HIT_1, score: 0.91 },
      { node_id: "n2", content: HIT_2, score: 0.42 },
    ],
    generation_record: { id: `g-${message}`, model: "gpt-4o-mini" },
    generation_output: { answer: text, citations: [{ node_id: "n1" }] },
    ...extra,
  };
}

interface StoredAnswer {
  id: string;
  gate: { status: string; checks: EvaluationCheck[] };
  feedback: { thumb: string | null; comment: string | null }[];
}

/** Seeds a passing and a failing answer of one service; returns their ids. */
async function seed(tag: string): Promise<{ good: string; wrong: string }> {
  const result = await server.json<{ answers: { id: string }[] }>("/api/v1/answers", {
    method: "POST",
    json: {
      answers: [
        answer(tag, "good", "The Lanting bridge was built in 1870 by the river guild [n1].", {
          service: `shop-${tag}`,
          latency_ms: 840,
          usage: { prompt_tokens: 900, completion_tokens: 40 },
          metadata: { tenant: "acme" },
        }),
        answer(tag, "wrong", "The Lanting bridge was built in 1875 by the river guild [n1].", {
          service: `shop-${tag}`,
          session_id: `session-${tag}`,
        }),
      ],
    },
  });
  return { good: result.answers[0]?.id ?? "", wrong: result.answers[1]?.id ?? "" };
}

async function login(browser: Browser, link: string) {
  const page = await browser.newPage();
  await page.goto(link);
  await page.waitForURL(/\/evaluations\/list$/);
  await page.close();
}

beforeAll(async () => {
  [server, desktop, phone] = await Promise.all([
    startAppServer({ databaseUrl: await e2eDatabase() }),
    launchBrowser(),
    launchBrowser({ phone: true }),
  ]);
  // A login link is good once: the phone signs in with a second one.
  const me = await server.json<{ user: { id: string } }>("/api/v1/session");
  await login(desktop, server.loginUrl);
  await login(phone, await server.loginLinkFor(me.user.id));
}, 120_000);

afterAll(async () => {
  await desktop?.close();
  await phone?.close();
  await server?.stop();
});

/** No page-level sideways scroll: the document is no wider than the screen. */
async function expectNoSidewaysScroll(page: Page, width: number) {
  const scrollWidth = await page.evaluate<number>("document.scrollingElement.scrollWidth");
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

describe.each([
  { tag: "desktop", width: 1360, browser: () => desktop },
  { tag: "phone", width: PHONE.width, browser: () => phone },
])("production pages on a $tag screen", { timeout: 120_000 }, ({ tag, width, browser }) => {
  let ids: { good: string; wrong: string };
  beforeAll(async () => {
    ids = await seed(tag);
  });

  it("keeps the answer list's filters in the URL", async () => {
    const page = await browser().newPage();
    await page.goto(`${server.origin}/evaluations/list`);
    await page.getByRole("link", { name: "Production" }).click();
    await page.waitForURL(/\/production\/answers/);
    await page.getByLabel("Service").fill(`shop-${tag}`);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(new RegExp(`service=shop-${tag}`));
    await expect.poll(() => page.getByTestId("answer-row").count()).toBe(2);
    await page.getByLabel("Verdict").selectOption("fail");
    await page.waitForURL(/gate=fail/);
    await expect.poll(() => page.getByTestId("answer-row").count()).toBe(1);
    expect(await page.getByTestId("answer-row").getAttribute("data-message")).toBe("wrong");
    // A reload, or the link shared, shows the same list.
    await page.reload();
    await expect.poll(() => page.getByTestId("answer-row").count()).toBe(1);
    expect(await page.getByLabel("Verdict").inputValue()).toBe("fail");
    expect(await page.getByLabel("Service").inputValue()).toBe(`shop-${tag}`);
    await page.goto(`${server.origin}/production/answers?service=shop-${tag}&gate=pass`);
    await expect.poll(() => page.getByTestId("answer-row").count()).toBe(1);
    expect(await page.getByTestId("answer-row").getAttribute("data-message")).toBe("good");
    await expectNoSidewaysScroll(page, width);
    if (tag === "desktop") await shoot(page, "production-answers");
    await page.close();
  });

  it("shows one answer: checks in words, citations linked to their hits, feedback added", async () => {
    const stored = await server.json<StoredAnswer>(`/api/v1/answers/${ids.wrong}`);
    expect(stored.gate.status).toBe("fail");
    const failed = stored.gate.checks.filter((c) => c.status === "fail");
    expect(failed.length).toBeGreaterThan(0);

    const page = await browser().newPage();
    await page.goto(`${server.origin}/production/answers?service=shop-${tag}`);
    await page.getByRole("link", { name: `(${tag} wrong)` }).click();
    await page.waitForURL(new RegExp(`/production/answers/${ids.wrong}$`));
    await expect
      .poll(() => page.getByRole("heading", { name: "Answer", level: 1 }).isVisible())
      .toBe(true);
    // Each failed check reads as the sentence explainCheck gives, under its name in words.
    for (const check of failed) {
      const item = page.locator(`[data-check="${check.name}"]`);
      expect(await item.textContent()).toContain(explainCheck(check, "en"));
      expect(await item.textContent()).not.toContain(check.name);
    }
    // The marker [n1] links to the first hit, which is then in view.
    await page.getByRole("link", { name: "Go to passage n1" }).click();
    await page.waitForURL(/#hit-1$/);
    const hit = page.locator("#hit-1");
    expect(await hit.textContent()).toContain(HIT_1);
    expect(await hit.isVisible()).toBe(true);
    expect(await page.locator("#hit-2").textContent()).toContain(HIT_2);
    expect(await page.getByTestId("answer-text").textContent()).toContain("1875");
    expect(await page.locator("dl").textContent()).toContain(`session-${tag}`);

    await page.getByRole("button", { name: "Thumbs down" }).first().click();
    await page.getByLabel("Comment").fill(`Wrong year (${tag})`);
    await page.getByRole("button", { name: "Add feedback" }).click();
    await expect
      .poll(async () => (await page.getByTestId("feedback-list").textContent()) ?? "")
      .toContain(`Wrong year (${tag})`);
    const after = await server.json<StoredAnswer>(`/api/v1/answers/${ids.wrong}`);
    expect(after.feedback.map((f) => [f.thumb, f.comment])).toEqual([
      ["down", `Wrong year (${tag})`],
    ]);
    await expectNoSidewaysScroll(page, width);
    if (tag === "desktop") await shoot(page, "production-answer", true);

    // In Chinese, the checks read in Chinese too; then back to English for the other tests.
    await page.getByRole("button", { name: "Switch the interface to Chinese" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "依据检查" }).isVisible()).toBe(true);
    for (const check of failed) {
      const sentence = explainCheck(check, "zh") ?? "";
      expect(await page.locator(`[data-check="${check.name}"]`).textContent()).toContain(sentence);
    }
    await page.getByRole("button", { name: "Switch the interface to English" }).click();
    await expect
      .poll(() => page.getByRole("heading", { name: "Evidence checks" }).isVisible())
      .toBe(true);

    // The list now says so, and filters by it.
    await page.goto(`${server.origin}/production/answers?service=shop-${tag}&feedback=any`);
    await expect.poll(() => page.getByTestId("answer-row").count()).toBe(1);
    expect(await page.getByTestId("answer-row").textContent()).toContain("1 down");
    await page.close();
  });

  it("adds an answer to a question set with the expected answer edited", async () => {
    const set = await server.json<{ id: string }>("/api/v1/question-sets", {
      method: "POST",
      json: { name: `production cases ${tag}` },
    });
    const page = await browser().newPage();
    await page.goto(`${server.origin}/production/answers/${ids.wrong}`);
    await page.getByRole("combobox", { name: "Question set" }).selectOption(set.id);
    const truth = page.getByLabel("Expected answer");
    expect(await truth.inputValue()).toContain("1875");
    await truth.fill("The Lanting bridge was built in 1870.");
    await page.getByRole("button", { name: "Add the question" }).click();
    await expect
      .poll(() => page.getByText(`Added to production cases ${tag}.`).isVisible())
      .toBe(true);
    const stored = await server.json<{
      questions: { question_text: string; ground_truth: string }[];
    }>(`/api/v1/question-sets/${set.id}`);
    expect(stored.questions.map((q) => [q.question_text, q.ground_truth])).toEqual([
      [`When was the bridge built? (${tag} wrong)`, "The Lanting bridge was built in 1870."],
    ]);
    // The same question again is named as already there, and nothing is added.
    await page.getByRole("button", { name: "Add the question" }).click();
    await expect
      .poll(() => page.getByText("This question is already in the set.").isVisible())
      .toBe(true);
    await expectNoSidewaysScroll(page, width);
    await page.close();
  });

  it("creates an ingest key shown once, then revokes it", async () => {
    const page = await browser().newPage();
    await page.goto(`${server.origin}/production/answers`);
    await page.getByRole("link", { name: "Ingest keys" }).click();
    await page.waitForURL(/\/production\/ingest-keys$/);
    await page.getByLabel("What the key is for").fill(`bot-${tag}`);
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByTestId("new-key").locator("code");
    await expect.poll(() => shown.isVisible()).toBe(true);
    const key = (await shown.textContent()) ?? "";
    expect(key).toMatch(/^rji_/);
    await expectNoSidewaysScroll(page, width);
    if (tag === "desktop") await shoot(page, "production-ingest-keys");
    // The key works: it sends an answer.
    const sent = await server.api("/api/v1/answers", {
      method: "POST",
      token: key,
      json: { answers: [answer(tag, "via-key", "Built in 1870 [n1].", {})] },
    });
    expect(sent.status).toBe(200);
    await page.getByRole("button", { name: "I have copied it" }).click();
    await expect.poll(() => page.getByTestId("new-key").count()).toBe(0);
    await page.reload();
    const row = page.getByTestId("key-row").filter({ hasText: `bot-${tag}` });
    await expect.poll(() => row.count()).toBe(1);
    expect(await page.content()).not.toContain(key);

    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => row.getAttribute("data-revoked")).toBe("true");
    expect(await row.textContent()).toContain("Revoked");
    const refused = await server.api("/api/v1/answers", {
      method: "POST",
      token: key,
      json: { answers: [answer(tag, "after-revoke", "Built in 1870 [n1].", {})] },
    });
    expect(refused.status).toBe(401);
    await page.close();
  });

  it("logs no console or page errors but the refused duplicate question", () => {
    // Chromium logs every 4xx; the one asked for above (the question added twice) is expected.
    const expected = /answers\/[0-9a-f-]+: console: .* 409 \(Conflict\)$/;
    expect(browser().errors.filter((e) => !expected.test(e))).toEqual([]);
    expect(browser().errors.filter((e) => expected.test(e))).toHaveLength(1);
  });
});
