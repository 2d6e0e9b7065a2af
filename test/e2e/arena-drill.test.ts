import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isChat, type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.js";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser, PHONE } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { lantingCollection, lantingQuestionSet, waitForRun } from "./support/fixtures.js";

// Issue 23 §3 and §5: an arena read question by question (who won, every answer, the judge's
// reasoning, position flips), "distinguishable" by the one rule its printed interval shows, the
// arena list's winner column and delete with confirmation, and the run list that groups an
// arena's own runs under it and names each run's bot. Desktop, and 390×844 for the opened question.

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const answersOf = (file: string) =>
  readFileSync(join(EXAMPLES, "arena", file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);

interface Questions {
  total: number;
  items: {
    question_text: string;
    pairs: { a: string; b: string; outcome: string; flipped: boolean | null }[];
  }[];
}
interface StoredArena {
  status: string;
  config: { contestants: { name: string; evaluation_id: string }[] };
  results: { contestants: { name: string }[] } | null;
}

let llm: ScriptedLlm;
let server: AppServer;
let desktop: Browser;
let phone: Browser;
let setId = "";
let builtinRun = "";
const arenas = { offline: "", pairwise: "" };

async function arenaOf(body: Record<string, unknown>): Promise<string> {
  const { id } = await server.json<{ id: string }>("/api/v1/arenas", {
    method: "POST",
    json: { question_set_id: setId, rounds: 200, ...body },
  });
  await vi.waitFor(
    async () => {
      const { status } = await server.json<StoredArena>(`/api/v1/arenas/${id}`);
      if (status !== "COMPLETED") throw new Error(`arena ${status}`);
    },
    { timeout: 90_000, interval: 250 },
  );
  return id;
}

beforeAll(async () => {
  // A pairwise judge that always prefers the answer shown first: every pair flips.
  llm = await startScriptedLlm({
    rules: [
      {
        when: isChat,
        reply: { auto: { reasoning: "The first answer reads better.", verdict: "A" } },
      },
    ],
  });
  [server, desktop, phone] = await Promise.all([
    e2eDatabase().then((databaseUrl) =>
      startAppServer({
        databaseUrl,
        config: {
          llm: {
            max_retries: 0,
            roles: { judge: { base_url: llm.baseUrl, api_key: "test-key", model: "judge-model" } },
          },
        },
      }),
    ),
    launchBrowser(),
    launchBrowser({ phone: true }),
  ]);
  const collectionId = await lantingCollection(server);
  setId = await lantingQuestionSet(server, collectionId);
  const run = await server.json<{ id: string }>("/api/v1/evaluations", {
    method: "POST",
    json: {
      name: "built-in run",
      question_set_id: setId,
      collection_id: collectionId,
      judges: ["offline"],
    },
  });
  builtinRun = run.id;
  const contestants = [
    { name: "terse", answers: answersOf("terse.jsonl") },
    { name: "verbose", answers: answersOf("verbose.jsonl") },
  ];
  [arenas.offline, arenas.pairwise] = await Promise.all([
    arenaOf({ name: "offline arena", contestants }),
    arenaOf({ name: "pairwise arena", judge: "pairwise", contestants }),
  ]);
  expect(await waitForRun(server, builtinRun)).toBe("COMPLETED");
  const page = await desktop.newPage();
  await page.goto(server.loginUrl);
  await page.waitForURL(/\/evaluations\/list$/);
  await page.close();
  await phone.context.addCookies(await desktop.context.cookies());
}, 240_000);

afterAll(async () => {
  await Promise.all([desktop?.close(), phone?.close()]);
  await server?.stop();
  await llm?.close();
});

const questionRows = (page: Page) => page.getByTestId("arena-question-row");

describe("an arena, question by question", { timeout: 120_000 }, () => {
  it("shows who won each question, and opens both answers with the judge's scores and reasoning", async () => {
    const api = await server.json<Questions>(`/api/v1/arenas/${arenas.offline}/questions`);
    const set = await server.json<{ id: string }>("/api/v1/question-sets", {
      method: "POST",
      json: { name: "from the arena" },
    });
    const page = await desktop.newPage();
    await page.goto(`${server.origin}/arenas/${arenas.offline}`);
    await expect.poll(() => questionRows(page).count()).toBe(24);
    // One pair: a "Winner" column, each cell the stored outcome in words.
    const winners = await page
      .getByTestId("arena-questions")
      .locator("tbody [data-testid=pair-outcome]")
      .allTextContents();
    expect(winners).toEqual(
      api.items.map(({ pairs: [p] }) =>
        p!.outcome === "a"
          ? p!.a
          : p!.outcome === "b"
            ? p!.b
            : p!.outcome === "tie"
              ? "Tie"
              : "Not compared",
      ),
    );
    expect(winners).toContain("verbose");

    const row = questionRows(page).nth(0);
    await row
      .getByRole("button", { name: "Open question 1: every answer and the judge's reasoning" })
      .click();
    const detail = page.getByTestId("arena-question-detail");
    const answers = detail.getByTestId("arena-answer");
    expect(await answers.count()).toBe(2);
    expect(await answers.nth(0).getByRole("heading").textContent()).toBe("terse");
    expect(await answers.nth(0).textContent()).toContain("In 1784.");
    expect(await answers.nth(1).textContent()).toContain("Lanting is a coastal city");
    for (const i of [0, 1]) {
      expect(await answers.nth(i).textContent()).toMatch(/Score \d\.\d+ \(0–1\)/);
      expect(await answers.nth(i).textContent()).toContain("Reasoning:");
    }

    // The question goes to a set's latest version from here, its expected answer edited first.
    const add = detail.getByTestId("arena-add-to-set");
    await add.locator("summary").click();
    await add.getByRole("combobox", { name: "Question set" }).selectOption(set.id);
    await add.getByLabel("Expected answer").fill("In 1784.");
    await add.getByRole("button", { name: "Add the question" }).click();
    await expect.poll(() => add.getByText("Added to from the arena.").isVisible()).toBe(true);
    const stored = await server.json<{
      questions: { question_text: string; ground_truth: string }[];
    }>(`/api/v1/question-sets/${set.id}`);
    expect(stored.questions.map((q) => [q.question_text, q.ground_truth])).toEqual([
      [api.items[0]!.question_text, "In 1784."],
    ]);
    expect(desktop.errors).toEqual([]);
    await page.close();
  });

  it("flags position flips and shows the pairwise judge's reasoning in both orders", async () => {
    const page = await desktop.newPage();
    await page.goto(`${server.origin}/arenas/${arenas.pairwise}`);
    await expect.poll(() => questionRows(page).count()).toBe(24);
    // The judge always picks the first answer: every judged question flipped, a tie.
    expect(await page.getByTestId("flip-flag").count()).toBe(24);
    await questionRows(page)
      .nth(2)
      .getByRole("button", { name: /^Open question 3/ })
      .click();
    const reasoning = page.getByTestId("arena-pair-reasoning");
    const text = await reasoning.textContent();
    expect(text).toContain("With terse's answer shown first: The first answer reads better.");
    expect(text).toContain("With verbose's answer shown first: The first answer reads better.");
    expect(await reasoning.getByTestId("flip-flag").count()).toBe(1);
    expect(desktop.errors).toEqual([]);
    await page.close();
  });

  it("says distinguishable exactly when the interval printed beside it leaves out 0", async () => {
    for (const id of [arenas.offline, arenas.pairwise]) {
      const page = await desktop.newPage();
      await page.goto(`${server.origin}/arenas/${id}`);
      const rows = page.getByTestId("pair-row");
      await expect.poll(() => rows.count()).toBe(1);
      const cells = await rows.nth(0).locator("td").allTextContents();
      const [low, high] = cells[7]!.replace(/[[\]]/g, "").split(",").map(Number);
      expect(cells[8]).toBe(low! > 0 || high! < 0 ? "yes" : "no");
      await page.close();
    }
    // The offline judge prefers the verbose answers question by question: told apart.
    const page = await desktop.newPage();
    await page.goto(`${server.origin}/arenas/${arenas.offline}`);
    await expect
      .poll(() => page.getByTestId("pair-row").locator("td").nth(8).textContent())
      .toBe("yes");
    await page.close();
  });

  it("fits an opened question on a phone's screen", async () => {
    const page = await phone.newPage();
    await page.goto(`${server.origin}/arenas/${arenas.offline}`);
    await expect.poll(() => questionRows(page).count()).toBe(24);
    await questionRows(page)
      .nth(0)
      .getByRole("button", { name: /^Open question 1/ })
      .click();
    const answers = page.getByTestId("arena-answer");
    await expect.poll(() => answers.count()).toBe(2);
    // Inside the table's scrolling box, so nothing of an answer is clipped.
    const frame = (await page
      .locator(".table-scroll", { has: page.getByTestId("arena-questions") })
      .boundingBox())!;
    for (const i of [0, 1]) {
      const box = (await answers.nth(i).boundingBox())!;
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

describe("the lists", { timeout: 120_000 }, () => {
  it("groups an arena's runs under it in the run list and names every run's bot", async () => {
    const offline = await server.json<StoredArena>(`/api/v1/arenas/${arenas.offline}`);
    const page = await desktop.newPage();
    await page.goto(`${server.origin}/evaluations/list`);
    const groups = page.getByTestId("arena-run-group");
    await expect.poll(() => groups.count()).toBe(2);
    expect(await groups.allTextContents()).toEqual(
      expect.arrayContaining([
        "Runs made for the arena offline arena",
        "Runs made for the arena pairwise arena",
      ]),
    );
    // The built-in run is the person's own: first, not under a group, named with its bot.
    const rows = page.getByTestId("evaluation-row");
    const first = rows.nth(0);
    expect(await first.getByRole("link").first().textContent()).toBe("built-in run");
    expect(await first.getByTestId("run-bot").textContent()).toBe("built-in, extractive");
    expect(await first.getByTestId("arena-run").count()).toBe(0);
    // An arena's run: marked with its contestant, its bot an answers file, listed after its heading.
    const terse = offline.config.contestants[0]!.evaluation_id;
    const marked = page.locator(
      `[data-testid=evaluation-row]:has(a[href="/evaluations/${terse}"])`,
    );
    expect(await marked.getByTestId("arena-run").textContent()).toBe(
      "contestant “terse” of an arena",
    );
    expect(await marked.getByTestId("run-bot").textContent()).toBe("answers file");
    const order = (await page.evaluate(`(() => {
      const rows = [...document.querySelectorAll("tbody tr")];
      const heading = rows.findIndex((r) => r.textContent.includes("offline arena"));
      const run = rows.findIndex((r) => r.querySelector('a[href="/evaluations/${terse}"]'));
      return { heading, run, own: rows.findIndex((r) => r.textContent.includes("built-in run")) };
    })()`)) as { heading: number; run: number; own: number };
    expect(order.own).toBeLessThan(order.heading);
    expect(order.heading).toBeLessThan(order.run);
    // The run's own page names its bot too.
    await page.goto(`${server.origin}/evaluations/${builtinRun}`);
    await expect
      .poll(() => page.getByTestId("run-bot").textContent())
      .toBe("Bot: built-in, extractive");
    expect(desktop.errors).toEqual([]);
    await page.close();
  });

  it("offers the LLM judges in the new-run form when the server has a judge model", async () => {
    const page = await desktop.newPage();
    await page.goto(`${server.origin}/evaluations/new`);
    const rubric = page.locator("input[name=judges][value=rubric]");
    await expect.poll(() => rubric.count()).toBe(1);
    await expect
      .poll(() =>
        page.evaluate(
          "fetch('/api/v1/llm').then((r) => r.json()).then((s) => s.roles.judge.model)",
        ),
      )
      .toBe("judge-model");
    expect(await rubric.isDisabled()).toBe(false);
    expect(await page.locator("#judges-need-llm").count()).toBe(0);
    await page.close();
  });

  it("shows each arena's winner and deletes an arena after confirmation, with its runs", async () => {
    const offline = await server.json<StoredArena>(`/api/v1/arenas/${arenas.offline}`);
    const page = await desktop.newPage();
    await page.goto(`${server.origin}/arenas`);
    const row = page.getByTestId("arena-row").filter({ hasText: "offline arena" });
    await expect
      .poll(() => row.getByTestId("arena-winner").textContent())
      .toContain(offline.results!.contestants[0]!.name);
    // Dismissed: nothing is deleted.
    page.once("dialog", (dialog) => void dialog.dismiss());
    await row.getByRole("button", { name: "Delete the arena offline arena" }).click();
    expect((await server.api(`/api/v1/arenas/${arenas.offline}`)).status).toBe(200);
    // Confirmed: the arena and the runs it made go.
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await row.getByRole("button", { name: "Delete the arena offline arena" }).click();
    await expect.poll(() => page.getByTestId("arena-row").count()).toBe(1);
    expect(asked).toContain("Delete the arena “offline arena”?");
    expect((await server.api(`/api/v1/arenas/${arenas.offline}`)).status).toBe(404);
    const terse = offline.config.contestants[0]!.evaluation_id;
    expect((await server.api(`/api/v1/evaluations/${terse}`)).status).toBe(404);
    expect(desktop.errors).toEqual([]);
    await page.close();
  });
});
