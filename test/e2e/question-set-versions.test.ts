import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";

// Issue 28 §3 in the browser: a save of the editor is one version; the versions panel diffs two
// versions and restores an old one as a new version.

/** A page's own requests answer within this even on a loaded machine. */
const WAIT = { timeout: 15_000 };

let server: AppServer;
let browser: Browser;

interface SetWithQuestions {
  id: string;
  questions: { id: string; question_text: string; ground_truth: string }[];
}

const QUESTIONS = [
  { question_type: "FACTUAL", question_text: "When did Line 1 open?", ground_truth: "2009" },
  { question_type: "FACTUAL", question_text: "What does a ride cost?", ground_truth: "2 yuan" },
  {
    question_type: "FACTUAL",
    question_text: "When was the university founded?",
    ground_truth: "1952",
  },
];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startAppServer({ databaseUrl: await e2eDatabase() }),
    launchBrowser(),
  ]);
  const page = await browser.newPage();
  await page.goto(server.loginUrl);
  await page.waitForURL(/\/evaluations\/list$/);
  await page.close();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

beforeEach(() => {
  browser.errors.length = 0;
});

describe("question set versions in the browser", { timeout: 60_000 }, () => {
  it("saves an edit as one version, shows its diff, and restores the first version", async () => {
    const set = await server.json<SetWithQuestions>("/api/v1/question-sets", {
      method: "POST",
      json: { name: "versioned set", questions: QUESTIONS },
    });
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/question-sets/${set.id}`);
    const panel = page.getByTestId("versions-panel");
    await panel.getByTestId("version-1").waitFor();

    // One save: a reference changed and a row removed.
    await page.getByLabel("Ground truth 2").fill("3 yuan");
    await page.getByRole("button", { name: "Remove row 3" }).click();
    await page.getByRole("button", { name: "Save the question set" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent(), WAIT).toBe("Saved.");
    await expect.poll(() => panel.getByTestId("version-2").textContent(), WAIT).toContain("edited");
    expect(await panel.getByTestId("version-3").count()).toBe(0);

    // The diff of the newest version against the one before is shown by default.
    const diff = page.getByTestId("version-diff");
    await expect
      .poll(() => diff.getByRole("status").textContent(), WAIT)
      .toBe("0 added · 1 removed · 1 changed · 1 unchanged");
    expect(await diff.getByTestId("diff-removed").textContent()).toContain(
      "When was the university founded?",
    );
    const changed = await diff.getByTestId("diff-changed").textContent();
    expect(changed).toContain("references");
    expect(changed).toContain("2 yuan");
    expect(changed).toContain("3 yuan");
    // The two versions picked are in the URL.
    expect(new URL(page.url()).searchParams.get("from")).toBeNull();
    await page.getByLabel("Compare to version 1").check();
    await page.getByLabel("Compare from version 2").check();
    await expect.poll(() => new URL(page.url()).searchParams.get("from"), WAIT).toBe("2");
    await expect
      .poll(() => diff.getByRole("status").textContent(), WAIT)
      .toBe("1 added · 0 removed · 1 changed · 1 unchanged");

    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Restore version 1" }).click();
    await expect
      .poll(() => panel.getByRole("status").first().textContent(), WAIT)
      .toBe("Version 1 restored as version 3.");
    expect(asked).toContain("version 1");
    await expect
      .poll(() => panel.getByTestId("version-3").textContent(), WAIT)
      .toContain("restored version 1");
    // The editor shows the first version's questions again.
    await expect.poll(() => page.getByLabel("Ground truth 2").inputValue(), WAIT).toBe("2 yuan");
    await expect
      .poll(() => page.getByLabel("Question 3").inputValue(), WAIT)
      .toBe("When was the university founded?");
    const now = await server.json<SetWithQuestions>(`/api/v1/question-sets/${set.id}`);
    expect(now.questions.map((q) => [q.id, q.ground_truth])).toEqual(
      set.questions.map((q) => [q.id, q.ground_truth]),
    );
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("adds a run result's question to another set as that set's next version", async () => {
    const source = await server.json<SetWithQuestions>("/api/v1/question-sets", {
      method: "POST",
      json: { name: "source set", questions: QUESTIONS.slice(0, 1) },
    });
    const target = await server.json<SetWithQuestions>("/api/v1/question-sets", {
      method: "POST",
      json: { name: "target set", questions: QUESTIONS.slice(1, 2) },
    });
    const run = await server.json<{ id: string }>("/api/v1/evaluations", {
      method: "POST",
      json: {
        question_set_id: source.id,
        answers: [{ question: QUESTIONS[0]?.question_text, answer: "It opened in 2009." }],
        judges: ["offline"],
      },
    });
    await expect
      .poll(
        async () => (await server.json<{ status: string }>(`/api/v1/evaluations/${run.id}`)).status,
        {
          timeout: 30_000,
        },
      )
      .toBe("COMPLETED");
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/${run.id}`);
    await expect
      .poll(() => page.getByTestId("run-question-set-version").textContent(), WAIT)
      .toContain("Question set version: v1");
    const card = page.getByTestId("result-card").first();
    await card.getByRole("button", { name: /Details/ }).click();
    const add = card.getByTestId("result-add-to-set");
    await add.getByText("Add to question set").click();
    await add.getByLabel("Question set").selectOption(target.id);
    await add.getByRole("button", { name: "Add the question" }).click();
    await expect
      .poll(() => add.getByRole("status").textContent(), WAIT)
      .toContain("Added to target set.");
    const versions = await server.json<{ items: { number: number; change: string }[] }>(
      `/api/v1/question-sets/${target.id}/versions`,
    );
    expect(versions.items.map((v) => [v.number, v.change])).toEqual([
      [2, "appended"],
      [1, "created"],
    ]);
    const latest = await server.json<{
      questions: { question_text: string; ground_truth: string }[];
    }>(`/api/v1/question-sets/${target.id}/versions/2`);
    expect(latest.questions.at(-1)).toMatchObject({
      question_text: QUESTIONS[0]?.question_text,
      ground_truth: "2009",
    });
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("compares two runs on different versions on the questions both share unchanged, and says so", async () => {
    const set = await server.json<SetWithQuestions>("/api/v1/question-sets", {
      method: "POST",
      json: { name: "compared set", questions: QUESTIONS },
    });
    const run = async () => {
      const started = await server.json<{ id: string }>("/api/v1/evaluations", {
        method: "POST",
        json: {
          question_set_id: set.id,
          answers: QUESTIONS.map((q) => ({ question: q.question_text, answer: q.ground_truth })),
          judges: ["offline"],
        },
      });
      await expect
        .poll(
          async () =>
            (await server.json<{ status: string }>(`/api/v1/evaluations/${started.id}`)).status,
          { timeout: 30_000 },
        )
        .toBe("COMPLETED");
      return started.id;
    };
    const base = await run();
    await server.json(`/api/v1/question-sets/questions/${set.questions[1]?.id}`, {
      method: "PUT",
      json: { ground_truth: "3 yuan" },
    });
    const head = await run();
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/compare?base=${base}&head=${head}`);
    const warning = page.getByTestId("compare-incomparable");
    await expect
      .poll(() => warning.textContent(), WAIT)
      .toContain(
        "they ran on different versions of the question set (A: v1; B: v2): only the questions both versions share unchanged are compared",
      );
    expect(await page.getByTestId("compare-changed-questions").textContent()).toBe(
      "1 question(s) were edited between the two versions and are left out.",
    );
    expect(await page.getByTestId("compare-counts").textContent()).toContain("2 shared questions");
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
