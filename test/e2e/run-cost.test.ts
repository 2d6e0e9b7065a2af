import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.js";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { lantingCollection, lantingQuestionSet } from "./support/fixtures.js";

// Issue 26 §5 in the browser: the run page shows what the run cost (in total, the bot's, each
// judge's, by model) and a run paused by its cost limit says so.

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const answers = readFileSync(join(EXAMPLES, "arena", "terse.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as unknown);

let llm: ScriptedLlm;
let server: AppServer;
let browser: Browser;
let setId = "";
const runIds: Record<string, string> = {};

interface Run {
  id: string;
  status: string;
  status_reason: string | null;
  summary: { cost: { total: { cost_usd: number }; judges: Record<string, { cost_usd: number }> } };
}

async function startRun(name: string, extra: Record<string, unknown> = {}): Promise<Run> {
  const { id } = await server.json<{ id: string }>("/api/v1/evaluations", {
    method: "POST",
    json: { name, question_set_id: setId, judges: ["reference"], answers, ...extra },
  });
  let run: Run | undefined;
  await expect
    .poll(async () => (run = await server.json<Run>(`/api/v1/evaluations/${id}`)).status, {
      timeout: 60_000,
      interval: 250,
    })
    .toMatch(/COMPLETED|PAUSED|FAILED/);
  return run as Run;
}

beforeAll(async () => {
  // Every judge call reports 1,000 prompt tokens (400 from the provider's cache) and 100 out.
  llm = await startScriptedLlm({
    usage: { prompt_tokens: 1000, completion_tokens: 100, cached_tokens: 400 },
    rules: [{ reply: { auto: { score: 4, reasoning: "Matches the reference." } } }],
  });
  [server, browser] = await Promise.all([
    e2eDatabase().then((databaseUrl) =>
      startAppServer({
        databaseUrl,
        config: {
          llm: {
            max_retries: 0,
            roles: { judge: { base_url: llm.baseUrl, api_key: "test-key", model: "gpt-4o-mini" } },
          },
        },
      }),
    ),
    launchBrowser(),
  ]);
  setId = await lantingQuestionSet(server, await lantingCollection(server));
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

it("shows the run's cost in total, per judge and by model", async () => {
  const run = await startRun("priced");
  expect(run.status).toBe("COMPLETED");
  runIds.priced = run.id;
  // gpt-4o-mini at the default prices: 600 fresh prompt tokens at $0.15, 400 cached at $0.075
  // and 100 out at $0.60 per million, once per answer.
  const perCall = (600 * 0.15 + 400 * 0.075 + 100 * 0.6) / 1e6;
  expect(run.summary.cost.total.cost_usd).toBeCloseTo(answers.length * perCall, 12);
  const page = await browser.newPage();
  await page.goto(`${server.origin}/evaluations/${run.id}`);
  const panel = page.getByTestId("cost-panel");
  const dollars = `$${(answers.length * perCall).toFixed(4)}`;
  await expect.poll(() => panel.getByTestId("cost-total").textContent()).toBe(dollars);
  expect(await panel.getByTestId("cost-judge-reference").textContent()).toBe(dollars);
  const row = panel.getByTestId("cost-table").locator("tbody tr");
  expect(await row.count()).toBe(1);
  expect(await row.first().locator("td").allTextContents()).toEqual([
    "Judge: reference",
    "judge",
    "gpt-4o-mini",
    String(answers.length),
    String(answers.length * 1000),
    String(answers.length * 400),
    String(answers.length * 100),
    dollars,
  ]);
  // Each question's card says what its judging cost.
  await expect
    .poll(() => page.getByTestId("card-cost").first().textContent())
    .toBe(`cost $${perCall.toFixed(5)}`);
  await page.close();
});

it("says a run was paused by its cost limit", async () => {
  // Room for one answer's judging, not for one more with the 1.5x margin. Without the response
  // cache: the priced run's judgings are in it, and an answer from it costs nothing.
  const run = await startRun("capped", { max_cost_usd: 0.0002, no_cache: true });
  expect(run.status).toBe("PAUSED");
  runIds.capped = run.id;
  const page = await browser.newPage();
  await page.goto(`${server.origin}/evaluations/${run.id}`);
  await expect
    .poll(() => page.getByTestId("cost-limit-reached").textContent())
    .toContain("Paused: cost limit $0.00020 reached");
  expect(await page.getByTestId("cost-per-question").textContent()).toContain(
    "Cost limit: $0.00020",
  );
  await page.close();
});

it("sets the two runs' costs side by side in compare", async () => {
  const page = await browser.newPage();
  await page.goto(
    `${server.origin}/evaluations/compare?base=${runIds.priced}&head=${runIds.capped}`,
  );
  const rows = page.getByTestId("compare-cost").locator("tbody tr");
  await expect.poll(() => rows.count()).toBe(2);
  const perCall = (600 * 0.15 + 400 * 0.075 + 100 * 0.6) / 1e6;
  expect(await rows.nth(0).locator("th").textContent()).toBe("A: priced");
  expect((await rows.nth(0).locator("td").allTextContents()).slice(0, 1)).toEqual([
    `$${(answers.length * perCall).toFixed(4)}`,
  ]);
  // The capped run judged one answer before its limit.
  expect(await rows.nth(1).locator("th").textContent()).toBe("B: capped");
  expect((await rows.nth(1).locator("td").allTextContents()).slice(0, 1)).toEqual([
    `$${perCall.toFixed(5)}`,
  ]);
  await page.close();
});

it("raises a paused run's cost limit from its page, and the run goes on to the end", async () => {
  const run = await startRun("raised", { max_cost_usd: 0.0002, no_cache: true });
  expect(run.status).toBe("PAUSED");
  const page = await browser.newPage();
  await page.goto(`${server.origin}/evaluations/${run.id}`);
  const form = page.getByTestId("raise-cost-limit");
  const input = form.getByTestId("new-cost-limit");
  // Twice the old limit to start with; a limit under what was spent is refused before sending.
  await expect.poll(() => input.inputValue()).toBe("0.0004");
  await input.fill("0.00001");
  expect(await form.getByRole("button", { name: "Raise the limit and resume" }).isDisabled()).toBe(
    true,
  );
  await input.fill("1");
  await form.getByRole("button", { name: "Raise the limit and resume" }).click();
  await expect
    .poll(() => page.getByTestId("progress-count").textContent(), { timeout: 60_000 })
    .toBe(`${answers.length}/${answers.length}`);
  expect(await page.getByTestId("raise-cost-limit").count()).toBe(0);
  expect(await page.getByTestId("cost-per-question").textContent()).toContain("Cost limit: $1.00");
  const after = await server.json<{ status: string; max_cost_usd: number | null }>(
    `/api/v1/evaluations/${run.id}`,
  );
  expect(after).toMatchObject({ status: "COMPLETED", max_cost_usd: 1 });
  // The run's history says who changed the limit, and to what.
  await expect
    .poll(() =>
      page.locator('[data-testid="history-row"][data-action="evaluation.resume"]').textContent(),
    )
    .toContain("resumed the run under a cost limit of $1.00");
  await page.close();
});

it("says a run or a part of one that made no LLM call made none, rather than pricing it at $0.00", async () => {
  // An offline judge on supplied answers: nothing asks a model.
  const run = await startRun("offline", { judges: ["token_precision"] });
  expect(run.status).toBe("COMPLETED");
  expect(run.summary.cost.total.cost_usd).toBe(0);
  const page = await browser.newPage();
  await page.goto(`${server.origin}/evaluations/compare?base=${runIds.priced}&head=${run.id}`);
  const rows = page.getByTestId("compare-cost").locator("tbody tr");
  await expect.poll(() => rows.count()).toBe(2);
  expect(await rows.nth(1).locator("th").textContent()).toBe("B: offline");
  expect(await rows.nth(1).locator("td").allTextContents()).toEqual(["no LLM calls"]);
  // The priced run's answers were supplied: its bot made no call either, its judge did.
  const priced = await rows.nth(0).locator("td").allTextContents();
  expect(priced[1]).toBe("no LLM calls");
  expect(priced[0]).toMatch(/^\$0\.\d+$/);
  expect(await page.getByTestId("compare-cost").textContent()).not.toMatch(/\$0\.00(?!\d)/);

  // On the run's own page, each result card says so too, as its cost panel does.
  await page.goto(`${server.origin}/evaluations/${run.id}`);
  const cardCosts = page.getByTestId("card-cost");
  await expect.poll(() => cardCosts.first().textContent()).toBe("no LLM calls");
  const shown = await cardCosts.allTextContents();
  expect(shown.length).toBeGreaterThan(0);
  expect(new Set(shown)).toEqual(new Set(["no LLM calls"]));
  expect(await page.getByTestId("cost-panel").textContent()).toContain(
    "No LLM calls were recorded for this run.",
  );
  // The priced run's panel: its judge's dollars, and a bot that made no call.
  await page.goto(`${server.origin}/evaluations/${runIds.priced}`);
  await expect.poll(() => page.getByTestId("cost-bot").textContent()).toBe("no LLM calls");
  expect(await page.getByTestId("cost-total").textContent()).toMatch(/^\$0\.\d+$/);
  await page.close();
});

it("says which calls the response cache answered, at no cost", async () => {
  // The priced run's answers again, with the cache on: every judging comes from it.
  const run = await startRun("warm");
  expect(run.status).toBe("COMPLETED");
  expect(run.summary.cost.total.cost_usd).toBe(0);
  const page = await browser.newPage();
  await page.goto(`${server.origin}/evaluations/${run.id}`);
  await expect
    .poll(() => page.getByTestId("cost-cache-hits").textContent())
    .toBe(
      `${answers.length} calls were answered from ragjudge's response cache: no request was made, so their ${answers.length * 1100} tokens are not counted above and cost nothing.`,
    );
  expect(await page.getByTestId("cost-total").textContent()).toBe("$0.00");
  await page.close();
});
