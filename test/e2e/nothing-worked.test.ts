import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.js";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { lantingCollection, lantingQuestionSet, waitForRun } from "./support/fixtures.js";

// Issue 23 §1.4: outcomes where nothing worked are failures, not results. The scripted model
// fails every call: the judge model answers 500 and the generator model never replies in JSON.
// A pairwise arena is then FAILED with its errors counted by kind and no ranking; a question
// generation is FAILED with one grouped reason and nothing to add; a run whose every result is
// a judge error is shown as failed, its errors counted.

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const answersOf = (file: string) =>
  readFileSync(join(EXAMPLES, "arena", file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);

let llm: ScriptedLlm;
let server: AppServer;
let browser: Browser;
let setId = "";
const runs: Record<string, string> = {};

beforeAll(async () => {
  llm = await startScriptedLlm({
    rules: [
      {
        when: (request) => request.body.model === "judge-model",
        reply: { status: 500, message: "the judge model is down" },
      },
      { reply: { content: "Sorry, no JSON today." } },
    ],
  });
  const role = (model: string) => ({ base_url: llm.baseUrl, api_key: "test-key", model });
  [server, browser] = await Promise.all([
    e2eDatabase().then((databaseUrl) =>
      startAppServer({
        databaseUrl,
        config: {
          llm: {
            max_retries: 0,
            backoff_ms: 0,
            roles: { judge: role("judge-model"), generator: role("gen-model") },
          },
        },
      }),
    ),
    launchBrowser(),
  ]);
  setId = await lantingQuestionSet(server, await lantingCollection(server));
  // Two runs of precomputed answers judged offline (no model): the arena's contestants. And one
  // judged by the reference judge alone, whose model fails every call.
  for (const [name, file, judges] of [
    ["terse", "terse.jsonl", ["offline"]],
    ["verbose", "verbose.jsonl", ["offline"]],
    ["judged by a broken model", "terse.jsonl", ["reference"]],
  ] as const) {
    const run = await server.json<{ id: string }>("/api/v1/evaluations", {
      method: "POST",
      json: {
        name,
        question_set_id: setId,
        judges,
        answers: answersOf(file),
        retry: { attempts: 1, base_ms: 0, max_ms: 0 },
      },
    });
    expect(await waitForRun(server, run.id)).toBe("COMPLETED");
    runs[name] = run.id;
  }
  const page = await browser.newPage();
  await page.goto(server.loginUrl);
  await page.waitForURL(/\/evaluations\/list$/);
  await page.close();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
});

describe("outcomes where nothing worked", { timeout: 120_000 }, () => {
  it("shows a pairwise arena whose every judgment failed as failed, errors counted by kind, no ranking", async () => {
    const arena = await server.json<{ id: string }>("/api/v1/arenas", {
      method: "POST",
      json: {
        name: "broken judge",
        question_set_id: setId,
        judge: "pairwise",
        contestants: [
          { name: "terse", evaluation_id: runs.terse },
          { name: "verbose", evaluation_id: runs.verbose },
        ],
      },
    });
    const page = await browser.newPage();
    await page.goto(`${server.origin}/arenas/${arena.id}`);
    const failure = page.getByRole("alert");
    await expect
      .poll(() => failure.textContent(), { timeout: 60_000 })
      .toContain("The arena failed");
    const stored = await server.json<{ status: string; results: unknown }>(
      `/api/v1/arenas/${arena.id}`,
    );
    expect(stored.status).toBe("FAILED");
    expect(stored.results).toBeNull();
    // One line per kind of error with its count: 24 questions, each judged in both orders.
    const text = (await failure.textContent()) ?? "";
    expect(text).toContain(
      "All 24 pairwise judgments failed: 24 × the model's server answered with an error",
    );
    expect(text.match(/×/g)).toHaveLength(1);
    expect(await page.getByTestId("rating-row").count()).toBe(0);
    expect(await page.getByTestId("win-matrix").count()).toBe(0);

    await page.goto(`${server.origin}/arenas`);
    await expect
      .poll(() => page.getByTestId("arena-row").getAttribute("data-status"))
      .toBe("FAILED");
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("fails a question generation with no usable question once, with nothing to add", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/question-sets/new`);
    await page.getByRole("button", { name: "Generate from a collection" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Collection").selectOption({ label: "lanting" });
    await dialog.getByLabel("How many").fill("4");
    await dialog.getByRole("button", { name: "Generate" }).click();
    const failure = dialog.getByRole("alert");
    await expect
      .poll(() => failure.textContent(), { timeout: 60_000 })
      .toMatch(
        /^Generation failed: No usable question was generated: \d+ × the model's reply was unusable/,
      );
    // The reasons are counted once, not listed once per chunk, and nothing can be added.
    expect((await failure.textContent())?.match(/×/g)).toHaveLength(1);
    expect(await dialog.getByTestId("generation-preview").count()).toBe(0);
    expect(await dialog.getByRole("button", { name: /^Add / }).count()).toBe(0);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("shows a run whose every result is an error as failed, with its errors counted", async () => {
    const id = runs["judged by a broken model"]!;
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/${id}`);
    const notice = page.getByTestId("run-failed");
    await expect.poll(() => notice.textContent()).toContain("24 judge errors");
    expect(await notice.textContent()).toContain("Every result is an error");
    expect(await page.getByTestId("summary-panel").locator(".badge").first().textContent()).toBe(
      "Failed",
    );
    // The run list says the same.
    await page.goto(`${server.origin}/evaluations/list`);
    const row = page.getByTestId("evaluation-row").filter({ hasText: "judged by a broken model" });
    await expect.poll(() => row.locator(".badge").first().textContent()).toBe("Failed");
    // And in Chinese.
    await page.goto(`${server.origin}/evaluations/${id}`);
    await page.getByRole("button", { name: "Switch the interface to Chinese" }).click();
    await expect.poll(() => notice.textContent()).toContain("评判错误 24 个");
    await page.getByRole("button", { name: "Switch the interface to English" }).click();
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
