import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.js";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { lantingCollection, lantingQuestionSet, waitForRun } from "./support/fixtures.js";

// Issue 23 §1.3: comparing two ticked runs makes the older one the base, a Swap button turns it
// round, runs judged differently carry a warning, and the radar draws only the dimensions both
// runs have. The reference judge's model is the scripted server.

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const answersOf = (file: string) =>
  readFileSync(join(EXAMPLES, "arena", file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);

interface Comparison {
  counts: { regressions: number; improvements: number };
  incomparable: { code: string }[];
}

let llm: ScriptedLlm;
let server: AppServer;
let browser: Browser;
const runs = { before: "", after: "", reference: "" };

beforeAll(async () => {
  llm = await startScriptedLlm({
    rules: [{ reply: { auto: { score: 4, reasoning: "States the reference's facts." } } }],
  });
  [server, browser] = await Promise.all([
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
  ]);
  const setId = await lantingQuestionSet(server, await lantingCollection(server));
  // One after another, so their creation times are in this order.
  for (const [key, name, file, judges] of [
    ["before", "before", "verbose.jsonl", ["offline"]],
    ["after", "after", "terse.jsonl", ["offline"]],
    ["reference", "with reference", "terse.jsonl", ["offline", "reference"]],
  ] as const) {
    const run = await server.json<{ id: string }>("/api/v1/evaluations", {
      method: "POST",
      json: { name, question_set_id: setId, judges, answers: answersOf(file) },
    });
    expect(await waitForRun(server, run.id)).toBe("COMPLETED");
    runs[key] = run.id;
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

const countsText = (c: Comparison) =>
  [`${c.counts.regressions} regressions`, `${c.counts.improvements} improvements`] as const;

describe("comparing two runs", { timeout: 120_000 }, () => {
  it("makes the older of two ticked runs the base, and Swap turns them round", async () => {
    const forward = await server.json<Comparison>(
      `/api/v1/evaluations/compare?base=${runs.before}&head=${runs.after}`,
    );
    const backward = await server.json<Comparison>(
      `/api/v1/evaluations/compare?base=${runs.after}&head=${runs.before}`,
    );
    // The two directions read differently, or the test could not tell them apart.
    expect(forward.counts).not.toEqual(backward.counts);

    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/list`);
    // The newer run first, as a person ticks the top of the list (newest first).
    await page.getByLabel("Select after").check();
    await page.getByLabel("Select before").check();
    await page.getByRole("link", { name: "Compare the two selected" }).click();
    await page.waitForURL(/\/evaluations\/compare\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("base")).toBe(runs.before);
    expect(url.searchParams.get("head")).toBe(runs.after);
    const counts = page.getByTestId("compare-counts");
    for (const text of countsText(forward)) {
      await expect.poll(() => counts.textContent()).toContain(text);
    }
    // Same judges, same set: no warning, and the base is the older run.
    expect(await page.getByTestId("compare-incomparable").count()).toBe(0);
    expect(await page.getByTestId("compare-base-newer").count()).toBe(0);

    await page.getByRole("button", { name: "Swap A and B" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("base")).toBe(runs.after);
    expect(new URL(page.url()).searchParams.get("head")).toBe(runs.before);
    for (const text of countsText(backward)) {
      await expect.poll(() => counts.textContent()).toContain(text);
    }
    // Now the base is the newer run, and the page says so.
    await expect.poll(() => page.getByTestId("compare-base-newer").isVisible()).toBe(true);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("warns when the runs were judged differently and draws only the shared dimensions", async () => {
    const api = await server.json<Comparison>(
      `/api/v1/evaluations/compare?base=${runs.before}&head=${runs.reference}`,
    );
    expect(api.incomparable.map((r) => r.code)).toEqual(["judges", "scale"]);

    const page = await browser.newPage();
    await page.goto(
      `${server.origin}/evaluations/compare?base=${runs.before}&head=${runs.reference}`,
    );
    const warning = page.getByTestId("compare-incomparable");
    await expect.poll(() => warning.isVisible()).toBe(true);
    const text = await warning.textContent();
    expect(text).toContain("their scores are not comparable");
    expect(text).toContain("different judges (A: offline; B: offline, reference answer)");
    expect(text).toContain("different score scales (A: 1-10; B: 1-10, 1-5)");

    // B's reference score is a dimension A never had: it is named, not drawn as A's 0.
    const radar = page.getByTestId("chart-radar-compare");
    await expect.poll(() => radar.locator("tbody tr").count()).toBeGreaterThan(0);
    const rows = await radar.locator("tbody tr th, tbody tr td:first-child").allTextContents();
    expect(rows.some((row) => row.includes("(reference)"))).toBe(false);
    expect(rows.some((row) => row.includes("accuracy (offline)"))).toBe(true);
    expect(await radar.textContent()).toContain("Only in B: score (reference).");

    // And in Chinese.
    await page.getByRole("button", { name: "Switch the interface to Chinese" }).click();
    await expect
      .poll(() => warning.textContent())
      .toContain("评判不同（A：离线；B：离线, 参考答案）");
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
