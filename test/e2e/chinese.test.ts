import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGE_CODES, messageTemplate } from "../../src/text/index.js";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.js";
import { startTestBot, type TestBot } from "../support/test-bot.js";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import {
  chooseQuestionFile,
  lantingCollection,
  lantingQuestionSet,
  waitForRun,
} from "./support/fixtures.js";

// Issue 23 §4: with the interface in Chinese, what the server writes (chart notes, axis names,
// calibration warnings, why an arena or a generation failed, the offline judge's reason and
// suggestion) reads in Chinese too, and no page
// shows internal words ("seed 002") or a command's Markdown backticks.

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const answersOf = (file: string) =>
  readFileSync(join(EXAMPLES, "arena", file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);

/**
 * The fixed words of every English sentence the server can send as a code: the longest run of a
 * template between its placeholders. A page in Chinese shows none of them.
 */
const ENGLISH_SERVER_WORDS = MESSAGE_CODES.flatMap((code) => {
  const words = messageTemplate(code, "en")
    .split(/\{\w+\}/)
    .map((part) => part.trim())
    .sort((a, b) => b.length - a.length)[0]!;
  // A code that is only its placeholder ("plain", "sentences") has no words of its own; a lone
  // word ("none", a level of abstention) or a name both languages keep ("ROUGE-L") is no sentence.
  return words.length >= 4 && /\s/.test(words) && !messageTemplate(code, "zh").includes(words)
    ? [words]
    : [];
});

let llm: ScriptedLlm;
let bot: TestBot;
let server: AppServer;
let browser: Browser;
let setId = "";
const runs: Record<string, string> = {};

beforeAll(async () => {
  // The judge model fails every call: a pairwise arena then compares nothing and fails.
  llm = await startScriptedLlm({
    rules: [{ reply: { status: 500, message: "the judge model is down" } }],
  });
  const role = (model: string) => ({ base_url: llm.baseUrl, api_key: "test-key", model });
  [server, browser, bot] = await Promise.all([
    e2eDatabase().then((databaseUrl) =>
      startAppServer({
        databaseUrl,
        config: { llm: { max_retries: 0, backoff_ms: 0, roles: { judge: role("judge-model") } } },
      }),
    ),
    launchBrowser(),
    startTestBot({ delayMs: 0 }),
  ]);
  setId = await lantingQuestionSet(server, await lantingCollection(server));
  // A bot that answers every question with an HTTP 500: each result is a bot error.
  const failing = await server.json<{ id: string }>("/api/v1/question-sets/import", {
    method: "POST",
    json: {
      name: "failing bot",
      format: "jsonl",
      content: JSON.stringify({
        question: "Where is the quay? [500]",
        ground_truth: "By the river.",
      }),
    },
  });
  const broken = await server.json<{ id: string }>("/api/v1/evaluations", {
    method: "POST",
    json: {
      name: "broken bot",
      question_set_id: failing.id,
      judges: ["offline"],
      bot: { kind: "http", url: bot.url, retries: 0 },
    },
  });
  await waitForRun(server, broken.id);
  runs.broken = broken.id;
  for (const [name, file] of [
    ["terse", "terse.jsonl"],
    ["verbose", "verbose.jsonl"],
  ] as const) {
    const run = await server.json<{ id: string }>("/api/v1/evaluations", {
      method: "POST",
      json: { name, question_set_id: setId, judges: ["offline"], answers: answersOf(file) },
    });
    expect(await waitForRun(server, run.id)).toBe("COMPLETED");
    runs[name] = run.id;
  }
  // A bot that answers with cited contexts, so the evidence gate gives each answer a verdict.
  const echo = await server.json<{ id: string }>("/api/v1/evaluations", {
    method: "POST",
    json: {
      name: "echo bot",
      question_set_id: setId,
      judges: ["offline"],
      bot: { kind: "http", url: bot.url, retries: 0 },
    },
  });
  expect(await waitForRun(server, echo.id)).toBe("COMPLETED");
  runs.echo = echo.id;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
  await bot?.close();
});

let loggedIn = false;

/** A logged-in page with the interface switched to Chinese (the browser remembers both). */
async function chinesePage(path: string): Promise<Page> {
  const page = await browser.newPage();
  if (!loggedIn) {
    // The login link works once; the session cookie and the language choice then stay.
    await page.goto(server.loginUrl);
    await page.waitForURL(/\/evaluations\/list$/);
    await page.getByRole("button", { name: "Switch the interface to Chinese" }).click();
    loggedIn = true;
  }
  await page.goto(`${server.origin}${path}`);
  await expect.poll(() => page.evaluate<string>("document.documentElement.lang")).toBe("zh-CN");
  return page;
}

async function expectNoEnglishFromServer(page: Page) {
  const text = (await page.locator("main").innerText()) ?? "";
  for (const words of ENGLISH_SERVER_WORDS) expect(text, words).not.toContain(words);
  expect(text).not.toMatch(/\bseed\b/i);
  return text;
}

describe("the web app in Chinese", { timeout: 120_000 }, () => {
  it("shows the login page's commands as code, not Markdown backticks", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/login`);
    const intro = page.locator("main p").first();
    await expect
      .poll(() => intro.locator("code").allTextContents())
      .toEqual(["ragjudge serve", "ragjudge token create", "$RAGJUDGE_HOME/token"]);
    expect(await intro.textContent()).not.toContain("`");
    await page.close();
  });

  it("words a run page's chart notes and axis names in Chinese", async () => {
    const page = await chinesePage(`/evaluations/${runs.terse}`);
    const histogram = page.getByTestId("chart-histogram");
    await expect.poll(() => histogram.textContent()).toContain("每个已评分结果的 0–1 得分");
    // The radar's dimensions by name, not by field: its data table says them too.
    const radar = page.getByTestId("chart-radar");
    await radar.getByRole("button", { name: "以表格显示数据" }).click();
    const table = await radar.locator("table").innerText();
    expect(table).toContain("准确性");
    expect(table).toContain("完整性");
    expect(table).not.toMatch(/accuracy|completeness|exact_match|rouge_l/);
    await expectNoEnglishFromServer(page);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("words the offline judge's reason and suggestion on a result card in Chinese", async () => {
    const page = await chinesePage(`/evaluations/${runs.terse}`);
    const card = page.getByTestId("result-card").first();
    await card.getByRole("button", { name: "详情" }).click();
    const reasoning = card.getByTestId("judge-reasoning");
    await expect.poll(() => reasoning.textContent()).toContain("启发式评判（未用 LLM）：");
    expect(await reasoning.textContent()).not.toContain("Heuristic");
    const suggestion = await card.getByTestId("judge-suggestions").textContent();
    expect(suggestion).toMatch(/请|词汇检查没有提出建议/);
    await expectNoEnglishFromServer(page);
    // The API keeps the English words beside the code, for API users and older readers.
    const results = await server.json<{ items: Array<{ id: string }> }>(
      `/api/v1/evaluations/${runs.terse}/results?limit=1`,
    );
    const result = await server.json<{
      judges: { offline: { verdict: { reason: string; reason_message: { message: string } } } };
    }>(`/api/v1/evaluations/${runs.terse}/results/${results.items[0]!.id}`);
    const verdict = result.judges.offline.verdict;
    expect(verdict.reason_message.message).toBe(verdict.reason);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("says why a bot failed on its result card in Chinese, the bot's own words behind a toggle", async () => {
    // The API stores the error's kind beside its text.
    const list = await server.json<{ items: Array<{ status: string; error_kind: string | null }> }>(
      `/api/v1/evaluations/${runs.broken}/results`,
    );
    expect(list.items.map((r) => [r.status, r.error_kind])).toEqual([["BOT_ERROR", "http_status"]]);
    const page = await chinesePage(`/evaluations/${runs.broken}`);
    const error = page.getByTestId("result-card").first().getByTestId("card-bot-error");
    await expect.poll(() => error.textContent()).toContain("机器人返回了 HTTP 错误。");
    const detail = error.locator("details code");
    expect(await detail.isVisible()).toBe(false);
    await error.getByText("详细信息").click();
    await expect.poll(() => detail.isVisible()).toBe(true);
    expect(await detail.textContent()).toMatch(/^bot http_status: .*500/);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("words a result card's gate verdict, question type and cost in Chinese", async () => {
    const list = await server.json<{
      items: Array<{ gate_status: string | null; question_type: string; llm_called: boolean }>;
    }>(`/api/v1/evaluations/${runs.echo}/results?limit=1`);
    const first = list.items[0]!;
    expect(first.gate_status).toMatch(/^(pass|partial|fail)$/);
    // An offline judge and an HTTP bot: no LLM call for the question.
    expect(first.llm_called).toBe(false);
    const page = await chinesePage(`/evaluations/${runs.echo}`);
    const card = page.getByTestId("result-card").first();
    const verdict = { pass: "通过", partial: "部分通过", fail: "不通过" }[first.gate_status!];
    await expect.poll(() => card.getByTestId("card-gate").textContent()).toBe(`门控: ${verdict}`);
    const type = { FACTUAL: "事实型", INFERENTIAL: "推理型", USER_DEFINED: "自定义" }[
      first.question_type as "FACTUAL"
    ];
    expect(await card.getByTestId("card-question-type").textContent()).toBe(type);
    expect(await card.getByTestId("card-cost").textContent()).toBe("没有大模型调用");
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("words a question file's problems in Chinese", async () => {
    const page = await chinesePage("/evaluations/question-sets/new");
    await chooseQuestionFile(page);
    const issues = page.getByTestId("upload-issues");
    await expect
      .poll(() => issues.getByRole("listitem").allTextContents())
      .toEqual([
        "第 3 行: question_text 问题为空",
        "第 4 行: question_type “SOMETIMES”不是 FACTUAL, INFERENTIAL, USER_DEFINED 之一",
      ]);
    // A problem of the whole file names no line and no field.
    await page.getByTestId("question-file").setInputFiles({
      name: "empty.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("question\n"),
    });
    await expect
      .poll(() => issues.getByRole("listitem").allTextContents())
      .toEqual(["文件：文件中没有问题"]);
    await expectNoEnglishFromServer(page);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("words the calibration panel's warnings in Chinese", async () => {
    const run = runs.terse!;
    const results = await server.json<{ items: Array<{ id: string }> }>(
      `/api/v1/evaluations/${run}/results?limit=3`,
    );
    for (const [i, result] of results.items.slice(0, 3).entries()) {
      await server.api(`/api/v1/evaluations/${run}/results/${result.id}/labels/1-10`, {
        method: "PUT",
        json: { score: 3 + i * 3 },
      });
    }
    // The API sends the warning as a code with its parameters, and its English words.
    const report = await server.json<{ warnings: Array<{ code: string; params: object }> }>(
      `/api/v1/evaluations/${run}/calibration`,
    );
    expect(report.warnings).toContainEqual(
      expect.objectContaining({ code: "calibration.few_labels", params: { n: 3, min: 30 } }),
    );
    const page = await chinesePage(`/evaluations/${run}/label`);
    const panel = page.getByTestId("calibration-panel");
    await expect.poll(() => panel.textContent()).toContain("只有 3 个已标注结果");
    await expectNoEnglishFromServer(page);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("words an arena's ratings and why a pairwise arena failed in Chinese", async () => {
    const contestants = [
      { name: "terse", evaluation_id: runs.terse },
      { name: "verbose", evaluation_id: runs.verbose },
    ];
    const scored = await server.json<{ id: string }>("/api/v1/arenas", {
      method: "POST",
      json: { name: "offline scores", question_set_id: setId, judge: "offline", contestants },
    });
    const page = await chinesePage(`/arenas/${scored.id}`);
    const summary = page.getByTestId("arena-summary");
    await expect.poll(() => summary.textContent(), { timeout: 60_000 }).toContain("离线");
    const radar = page.getByTestId("chart-arena-radar");
    expect(await radar.textContent()).toContain("评分细则各维度（准确性、完整性、清晰度）");
    await expectNoEnglishFromServer(page);

    const pairwise = await server.json<{ id: string }>("/api/v1/arenas", {
      method: "POST",
      json: { name: "broken judge", question_set_id: setId, judge: "pairwise", contestants },
    });
    await page.goto(`${server.origin}/arenas/${pairwise.id}`);
    const failure = page.getByRole("alert");
    await expect
      .poll(() => failure.textContent(), { timeout: 60_000 })
      .toContain("全部 24 次成对评判都失败了：24 × 模型服务器返回了错误");
    await expectNoEnglishFromServer(page);
    // The API keeps the English words beside the code.
    const stored = await server.json<{
      status_reason: string;
      status_message: { code: string; params: { n: number }; message: string };
    }>(`/api/v1/arenas/${pairwise.id}`);
    expect(stored.status_message).toMatchObject({
      code: "arena.all_judgments_failed",
      params: { n: 24 },
      message: stored.status_reason,
    });
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
