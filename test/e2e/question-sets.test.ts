import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { BAD_QUESTION_CSV, chooseQuestionFile, lantingCollection } from "./support/fixtures.js";

// Seed 003's QuestionSetEditor in the browser: typing, a CSV parsed in the page, generation.

let server: AppServer;
let browser: Browser;

interface SetWithQuestions {
  id: string;
  name: string;
  questions: { question_text: string; ground_truth: string; question_type: string }[];
}

const sets = () =>
  server
    .json<{ items: { id: string; name: string }[] }>("/api/v1/question-sets")
    .then((r) => r.items);

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startAppServer({ databaseUrl: await e2eDatabase() }),
    launchBrowser(),
  ]);
  await lantingCollection(server);
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

describe("question sets in the browser", { timeout: 60_000 }, () => {
  it("creates a set by typing, flagging a repeated row until it is fixed", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/question-sets/new`);
    await page.getByLabel("Name", { exact: true }).fill("typed set");
    await page.getByRole("button", { name: "Add a question" }).click();
    await page.getByRole("button", { name: "Add a question" }).click();
    await page.getByLabel("Question 1").fill("When did Line 1 open?");
    await page.getByLabel("Ground truth 1").fill("18 September 2009");
    await page.getByLabel("Question 2").fill("when did line 1 open");
    await expect.poll(() => page.getByTestId("row-problem").textContent()).toBe("Repeats row 1");
    await page.getByRole("button", { name: "Save the question set" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toContain("Fix the flagged rows");
    expect((await sets()).map((s) => s.name)).not.toContain("typed set");

    await page.getByLabel("Question 2").fill("How long is Line 1?");
    await page.getByLabel("Type 2").selectOption("INFERENTIAL");
    // Undo brings back the last change only: the type, not the question.
    await page.getByRole("button", { name: "Undo the last change" }).click();
    expect(await page.getByLabel("Type 2").inputValue()).toBe("USER_DEFINED");
    expect(await page.getByLabel("Question 2").inputValue()).toBe("How long is Line 1?");
    await page.getByRole("button", { name: "Save the question set" }).click();
    await page.waitForURL(/\/evaluations\/question-sets\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").at(-1) ?? "";
    const saved = await server.json<SetWithQuestions>(`/api/v1/question-sets/${id}`);
    expect(saved.name).toBe("typed set");
    expect(saved.questions.map((q) => [q.question_text, q.ground_truth, q.question_type])).toEqual([
      ["When did Line 1 open?", "18 September 2009", "USER_DEFINED"],
      ["How long is Line 1?", "", "USER_DEFINED"],
    ]);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("names a CSV's bad rows by line and loads nothing from it; a good file lands in the table", async () => {
    const before = (await sets()).length;
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/question-sets/new`);
    await page.getByLabel("Name", { exact: true }).fill("from csv");
    await chooseQuestionFile(page);
    const issues = page.getByTestId("upload-issues");
    await expect.poll(() => issues.textContent()).toContain("2 bad rows in bad.csv");
    expect(await issues.getByRole("listitem").allTextContents()).toEqual([
      "line 3: question_text the question is empty",
      'line 4: question_type "SOMETIMES" is not one of FACTUAL, INFERENTIAL, USER_DEFINED',
    ]);
    expect(await page.getByTestId("question-row").count()).toBe(0);
    expect((await sets()).length).toBe(before);

    const good = BAD_QUESTION_CSV.replace(
      ",no question here,FACTUAL",
      "Where is the Old Quay?,,",
    ).replace("SOMETIMES", "inferential");
    await page
      .getByTestId("question-file")
      .setInputFiles({ name: "good.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
    await expect.poll(() => page.getByTestId("question-row").count()).toBe(3);
    await page.getByRole("button", { name: "Save the question set" }).click();
    await page.waitForURL(/\/evaluations\/question-sets\/[0-9a-f-]{36}$/);
    const saved = await server.json<SetWithQuestions>(
      `/api/v1/question-sets/${page.url().split("/").at(-1)}`,
    );
    expect(saved.questions.map((q) => q.question_type)).toEqual([
      "FACTUAL",
      "USER_DEFINED",
      "INFERENTIAL",
    ]);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("generates questions from a collection into the table, then saves them", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/question-sets/new`);
    await page.getByLabel("Name", { exact: true }).fill("generated set");
    await page.getByRole("button", { name: "Generate from a collection" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Collection").selectOption({ label: "lanting" });
    await dialog.getByLabel("How many").fill("4");
    await dialog.getByRole("button", { name: "Generate" }).click();
    // No LLM is configured: the server's heuristic generator makes them, and the modal says so.
    await expect
      .poll(() => dialog.getByTestId("generation-preview").isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(await dialog.getByTestId("generation-preview").textContent()).toContain(
      "offline heuristic",
    );
    await dialog.getByRole("button", { name: "Add 4 questions to the table" }).click();
    await expect.poll(() => page.getByTestId("question-row").count()).toBe(4);
    // Edit one before saving.
    await page.getByLabel("Ground truth 1").fill("edited truth");
    await page.getByRole("button", { name: "Save the question set" }).click();
    await page.waitForURL(/\/evaluations\/question-sets\/[0-9a-f-]{36}$/);
    const saved = await server.json<SetWithQuestions>(
      `/api/v1/question-sets/${page.url().split("/").at(-1)}`,
    );
    expect(saved.questions).toHaveLength(4);
    expect(saved.questions[0]?.ground_truth).toBe("edited truth");
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
