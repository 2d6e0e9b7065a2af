// The web app in headless Chromium against a real `ragjudge serve` (PostgreSQL server mode):
// - the JavaScript the first page (/evaluations/list) loads, gzip-compressed (goal < 250 kB);
// - the detail page of a run with 10,000 results: first result card on screen after navigation
//   (goal < 1 s), a filter change until the list shows it (goal < 100 ms), and long tasks while
//   the results list scrolls (goal: none over 50 ms);
// - the SSE stream of a 2,000-question run at full speed (an HTTP bot answering at once, the
//   offline judge), on PostgreSQL and on the embedded store: how far the page's progress trails
//   the server, when the page's summary shows the finished run's scored count (issue 23 §1.1:
//   it used to stay at the count it had when the page opened), and the page's JS heap across
//   the run (goal: flat).
// The 10,000 results are copies of a real 24-question run's results, written in one statement:
// what is measured is the page, not how fast they were made. The table is then vacuumed and
// analyzed, as the server's autovacuum leaves a finished run (a real 10,000-question run takes
// far longer than its one-minute nap): the results list's filtered count reads the index only
// when the run's pages are all-visible.

import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { queryRows } from "../src/store/index.js";
import { createDatabase, startPostgresServer } from "../test/support/postgres-server.js";
import { startTestBot } from "../test/support/test-bot.js";
import { type AppServer, startAppServer } from "../test/e2e/support/app-server.js";
import { launchBrowser } from "../test/e2e/support/browser.js";
import { lantingCollection, lantingQuestionSet, waitForRun } from "../test/e2e/support/fixtures.js";

export interface WebBench {
  first_page_js: { files: number; raw_kb: number; gzip_kb: number; goal_met: boolean };
  detail_10k: {
    first_card_ms: number;
    filter_change_ms: number;
    scroll_ms: number;
    long_tasks: number;
    longest_task_ms: number;
    goals_met: { first_render: boolean; filter: boolean; scroll: boolean };
  };
  sse_2000: SseBench;
  sse_2000_embedded: SseBench;
}

export interface SseBench {
  questions: number;
  run_seconds: number;
  page_lag_ms: number;
  /** Server COMPLETED until the page's summary shows the final scored count; null: not in 60 s. */
  summary_settled_ms: number | null;
  progress_updates_seen: number;
  heap_mb_start: number;
  heap_mb_peak: number;
  heap_mb_end: number;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

// Scripts run in the page (as text: this file is compiled without the DOM's types).

/** Before the app loads: record long tasks, and when the first result card appears. */
const PROBES = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: "longtask", buffered: true });
  new MutationObserver((_m, observer) => {
    if (document.querySelector('[data-testid="result-card"]')) {
      window.__firstCard = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

/** From the Outcome select's change to the list showing the new count with its cards. */
const FILTER_CHANGE = `new Promise((resolve, reject) => {
  const count = document.querySelector('[data-testid="results-count"]');
  const select = [...document.querySelectorAll("label")]
    .find((l) => l.textContent.startsWith("Outcome"))?.querySelector("select");
  if (!count || !select) return reject(new Error("no filter or count on the page"));
  const before = count.textContent;
  const start = performance.now();
  new MutationObserver((_m, observer) => {
    if (count.textContent !== before && document.querySelector('[data-testid="result-card"]')) {
      observer.disconnect();
      resolve(performance.now() - start);
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
  select.value = "passed";
  select.dispatchEvent(new Event("change", { bubbles: true }));
})`;

/** 300 frames of scrolling the page (the results list is in its scroll) by 400 px each; long tasks seen meanwhile. */
const SCROLL = `(async () => {
  window.__longTasks.length = 0;
  const start = performance.now();
  for (let i = 0; i < 300; i++) {
    window.scrollBy(0, 400);
    await new Promise((r) => requestAnimationFrame(r));
  }
  return { ms: performance.now() - start, tasks: [...window.__longTasks] };
})()`;

async function firstPageJs(server: AppServer, page: Page) {
  const scripts: Buffer[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    try {
      scripts.push(await response.body());
    } catch {
      // A script that failed to load is not shipped.
    }
  });
  await page.goto(`${server.origin}/evaluations/list`);
  await page.waitForLoadState("networkidle");
  const raw = scripts.reduce((n, b) => n + b.length, 0);
  const gzip = scripts.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
  return {
    files: scripts.length,
    raw_kb: round(raw / 1024),
    gzip_kb: round(gzip / 1024),
    goal_met: gzip < 250 * 1024,
  };
}

/** A run with `total` results, copied from a finished run's results in one statement. */
async function bigRun(server: AppServer, from: string, total: number): Promise<string> {
  const [run] = await queryRows<{ id: string }>(
    server.store.db,
    sql`insert into evaluations (user_id, name, collection_id, question_set_id, bot_id, judge_llm_model_id, config,
          status, progress, total_questions, completed_questions, scored_questions, average_score, started_at, finished_at)
        select user_id, ${`${total} results`}, collection_id, question_set_id, bot_id, judge_llm_model_id, config,
          status, 100, ${total}, ${total}, ${total}, average_score, started_at, finished_at
        from evaluations where id = ${from} returning id`,
  );
  if (!run) throw new Error("no source run");
  const [{ n } = { n: 0 }] = await queryRows<{ n: number }>(
    server.store.db,
    sql`select count(*)::int as n from evaluation_results where evaluation_id = ${from}`,
  );
  await server.store.db.execute(sql`
    insert into evaluation_results (user_id, evaluation_id, question_id, position, question_type, question_text,
      ground_truth, reference_context, status, attempts, latency_ms, usage, rag_answer, rag_answer_sources,
      rag_citations, rag_tool_calls, gate_status, gate, judges, score, passed, error)
    select r.user_id, ${run.id}, r.question_id || '-' || g, g * ${n} + r.position, r.question_type,
      r.question_text || ' (' || g || ')', r.ground_truth, r.reference_context, r.status, r.attempts, r.latency_ms,
      r.usage, r.rag_answer, r.rag_answer_sources, r.rag_citations, r.rag_tool_calls, r.gate_status, r.gate,
      r.judges, r.score, r.passed, r.error
    from evaluation_results r, generate_series(0, ${Math.ceil(total / Math.max(1, n))}) g
    where r.evaluation_id = ${from} and g * ${n} + r.position < ${total}`);
  await server.store.db.execute(sql`vacuum analyze evaluation_results`);
  return run.id;
}

async function detailPage(server: AppServer, page: Page, id: string) {
  await page.addInitScript(PROBES);
  await page.goto(`${server.origin}/evaluations/${id}`);
  await page.waitForSelector('[data-testid="result-card"]');
  const firstCard = await page.evaluate<number>("window.__firstCard");
  await page.waitForLoadState("networkidle");

  // A filter change: from the select's change to the list showing the filtered count.
  const filterMs = await page.evaluate<number>(FILTER_CHANGE);
  await page.waitForLoadState("networkidle");

  // Scroll the list for a while, a step per frame, pages loading as they come.
  const scroll = await page.evaluate<{ ms: number; tasks: number[] }>(SCROLL);
  return {
    first_card_ms: round(firstCard),
    filter_change_ms: round(filterMs),
    scroll_ms: round(scroll.ms),
    long_tasks: scroll.tasks.filter((d) => d > 50).length,
    longest_task_ms: round(Math.max(0, ...scroll.tasks)),
    goals_met: {
      first_render: firstCard < 1000,
      filter: filterMs < 100,
      scroll: scroll.tasks.every((d) => d <= 50),
    },
  };
}

export async function sseRun(server: AppServer, page: Page, questions: number): Promise<SseBench> {
  const bot = await startTestBot({ delayMs: 0 });
  try {
    const set = await server.json<{ id: string }>("/api/v1/question-sets", {
      method: "POST",
      json: {
        name: `${questions} questions`,
        questions: Array.from({ length: questions }, (_, i) => ({
          question_text: `What does record ${i} of the harbour ledger say about berth ${i % 97}?`,
          ground_truth: `Record ${i} names berth ${i % 97}.`,
        })),
      },
    });
    await page.goto(`${server.origin}/evaluations/list`);
    const heap = () => page.evaluate<number>("performance.memory.usedJSHeapSize / 2 ** 20");
    const run = await server.json<{ id: string }>("/api/v1/evaluations", {
      method: "POST",
      json: { question_set_id: set.id, bot: { kind: "http", url: bot.url }, judges: ["offline"] },
    });
    const started = Date.now();
    await page.goto(`${server.origin}/evaluations/${run.id}`);
    await page.waitForSelector('[data-testid="progress-count"]');
    const heaps = [await heap()];
    const seen = new Set<string>();
    let serverDone = 0;
    let pageDone = 0;
    while (Date.now() - started < 600_000) {
      const text = await page.getByTestId("progress-count").textContent();
      if (text) seen.add(text);
      if (!pageDone && text === `${questions}/${questions}`) pageDone = Date.now();
      if (!serverDone) {
        const status = await server.json<{ status: string }>(`/api/v1/evaluations/${run.id}`);
        if (status.status === "COMPLETED") serverDone = Date.now();
      }
      heaps.push(await heap());
      if (serverDone && pageDone) break;
      await page.waitForTimeout(250);
    }
    await waitForRun(server, run.id);
    const final = await server.json<{ scored_questions: number }>(`/api/v1/evaluations/${run.id}`);
    const scored = page.getByTestId("summary-scored");
    let settled: number | null = null;
    while (Date.now() - serverDone < 60_000) {
      if ((await scored.textContent()) === `${final.scored_questions} / ${questions}`) {
        settled = Date.now() - serverDone;
        break;
      }
      await page.waitForTimeout(100);
    }
    await page.waitForTimeout(1500);
    await page.evaluate("window.gc && window.gc()");
    const end = await heap();
    return {
      questions,
      run_seconds: round((serverDone - started) / 1000),
      // Negative when the page showed the last result before the server's status said COMPLETED.
      page_lag_ms: pageDone - serverDone,
      summary_settled_ms: settled,
      progress_updates_seen: seen.size,
      heap_mb_start: round(heaps[0] ?? 0),
      heap_mb_peak: round(Math.max(...heaps)),
      heap_mb_end: round(end),
    };
  } finally {
    await bot.close();
  }
}

/** The SSE measurement on `ragjudge serve`'s embedded store (PGlite in its home). */
export async function sseOnEmbeddedStore(questions = 2_000): Promise<SseBench> {
  const server = await startAppServer({});
  const browser = await launchBrowser({
    extraArgs: ["--enable-precise-memory-info", "--js-flags=--expose-gc"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(server.loginUrl);
    await page.waitForURL(/\/evaluations\/list$/);
    return await sseRun(server, page, questions);
  } finally {
    await browser.close();
    await server.stop();
  }
}

export async function benchWeb(): Promise<WebBench> {
  const postgres = await startPostgresServer();
  try {
    const server = await startAppServer({
      databaseUrl: await createDatabase(postgres.url, "bench"),
    });
    const browser = await launchBrowser({
      extraArgs: ["--enable-precise-memory-info", "--js-flags=--expose-gc"],
    });
    try {
      const page = await browser.newPage();
      await page.goto(server.loginUrl);
      await page.waitForURL(/\/evaluations\/list$/);
      const first_page_js = await firstPageJs(server, await browser.newPage());

      const collection = await lantingCollection(server);
      const set = await lantingQuestionSet(server, collection);
      const small = await server.json<{ id: string }>("/api/v1/evaluations", {
        method: "POST",
        json: { question_set_id: set, collection_id: collection, judges: ["offline"] },
      });
      await waitForRun(server, small.id);
      const big = await bigRun(server, small.id, 10_000);
      const detail_10k = await detailPage(server, await browser.newPage(), big);
      const sse_2000 = await sseRun(server, await browser.newPage(), 2_000);
      const sse_2000_embedded = await sseOnEmbeddedStore();
      return { first_page_js, detail_10k, sse_2000, sse_2000_embedded };
    } finally {
      await browser.close();
      await server.stop();
    }
  } finally {
    await postgres.stop();
  }
}
