import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nameEn } from "../../web/src/i18n/name-strings.js";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { lantingCollection, lantingQuestionSet } from "./support/fixtures.js";

// Issue 23 §3 and §5 on a server with no LLM: the new-run form disables the judges that need
// one and says why; the generation preview shows each question's type and ground truth before
// "Add"; the question-set list downloads a set and deletes one after confirmation.

let server: AppServer;
let browser: Browser;
let setId = "";

beforeAll(async () => {
  [server, browser] = await Promise.all([
    e2eDatabase().then((databaseUrl) => startAppServer({ databaseUrl })),
    launchBrowser(),
  ]);
  setId = await lantingQuestionSet(server, await lantingCollection(server));
  const page = await browser.newPage();
  await page.goto(server.loginUrl);
  await page.waitForURL(/\/evaluations\/list$/);
  await page.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("forms without an LLM", { timeout: 90_000 }, () => {
  it("disables the judges that need an LLM, with the reason, and keeps the others", async () => {
    const status = await server.json<{
      roles: Record<string, { configured: boolean; model: string | null }>;
    }>("/api/v1/llm");
    expect(status.roles.judge).toEqual({ configured: false, model: null });
    expect(JSON.stringify(status)).not.toMatch(/key|http/i);

    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/new`);
    const box = (judge: string) => page.locator(`input[name=judges][value=${judge}]`);
    await expect.poll(() => box("rubric").isDisabled()).toBe(true);
    for (const judge of ["review", "rubric", "reference"]) {
      expect(await box(judge).isDisabled(), judge).toBe(true);
      expect(await box(judge).getAttribute("aria-describedby")).toBe("judges-need-llm");
    }
    for (const judge of ["offline", "token_precision", "contains_reference"]) {
      expect(await box(judge).isDisabled(), judge).toBe(false);
    }
    expect(await page.locator("#judges-need-llm").textContent()).toContain(
      "this server has none: set the judge model",
    );

    // The new arena's form too: only the offline judge can be chosen.
    await page.goto(`${server.origin}/arenas/new`);
    const judge = (value: string) => page.locator(`input[name=judge][value=${value}]`);
    await expect.poll(() => judge("pairwise").isDisabled()).toBe(true);
    for (const value of ["rubric", "reference"]) expect(await judge(value).isDisabled()).toBe(true);
    expect(await judge("offline").isDisabled()).toBe(false);
    expect(await judge("offline").isChecked()).toBe(true);
    expect(await page.locator("#arena-judges-need-llm").textContent()).toContain(
      "The offline judge needs none.",
    );
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("previews generated questions with their type and ground truth before “Add”", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/question-sets/new`);
    await page.getByRole("button", { name: "Generate from a collection" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Generate" }).click();
    const rows = dialog.getByTestId("generation-preview-row");
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const generationId = await page.evaluate(
      "performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/generations/')).at(-1)",
    );
    const generated = await server.json<{
      questions: { question_text: string; question_type: string; ground_truth: string }[];
    }>(new URL(generationId as string).pathname);
    expect(await rows.count()).toBe(generated.questions.length);
    const cells = await rows.nth(0).locator("td").allTextContents();
    const first = generated.questions[0]!;
    // The type in words, as the question table names it ("FACTUAL" reads "factual").
    const typeName = nameEn[`qtype.${first.question_type}` as keyof typeof nameEn];
    expect(typeName).toBeDefined();
    expect(cells).toEqual(["1", first.question_text, typeName, first.ground_truth]);
    expect(first.ground_truth).not.toBe("");
    // Nothing is in the table until "Add".
    expect(await page.getByLabel("Question 1").count()).toBe(0);
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});

describe("the question-set list", { timeout: 90_000 }, () => {
  it("downloads a set: the same file as the server's export", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/question-sets`);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download lanting-questions as CSV" }).click();
    const file = await download;
    const text = readFileSync((await file.path())!, "utf8");
    const exported = await (
      await server.api(`/api/v1/question-sets/${setId}/export?format=csv`)
    ).text();
    expect(text).toBe(exported);
    expect(text).toContain("In which year did the salt merchants");
    await page.close();
  });

  it("deletes a set only after confirmation", async () => {
    const { id } = await server.json<{ id: string }>("/api/v1/question-sets", {
      method: "POST",
      json: { name: "to delete", questions: [{ question_text: "Why?", ground_truth: "Because." }] },
    });
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/question-sets`);
    const row = page.getByTestId("question-set-row").filter({ hasText: "to delete" });
    await expect.poll(() => row.count()).toBe(1);
    page.once("dialog", (dialog) => void dialog.dismiss());
    await row.getByRole("button", { name: "Delete the question set to delete" }).click();
    expect((await server.api(`/api/v1/question-sets/${id}`)).status).toBe(200);
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await row.getByRole("button", { name: "Delete the question set to delete" }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(asked).toContain("Delete the question set “to delete”?");
    expect((await server.api(`/api/v1/question-sets/${id}`)).status).toBe(404);
    // The other set stays.
    expect((await server.api(`/api/v1/question-sets/${setId}`)).status).toBe(200);
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
