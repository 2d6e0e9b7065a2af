// runItem's retries (issue 15 §1.3): one decision, on the typed error's `retryable`, so a call is
// never retried by two loops at once. HTTP requests are counted on the scripted server per judge.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { promptText } from "../../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../../test/support/use-scripted-llm.js";
import { loadConfig } from "../../config/index.js";
import { createHttpBot, OPEN_BOT_NETWORK, suppliedAnswerBot } from "../bots/index.js";
import { EvaluationRequestSchema, evaluationSnapshot } from "./config.js";
import { type ItemQuestion, runItem } from "./run-item.js";

const server = useScriptedLlm();
const USAGE = { prompt_tokens: 1000, completion_tokens: 10 };

const QUESTION: ItemQuestion = {
  evaluation_id: "e1",
  question_id: "q1",
  question_text: "When did Line 1 open?",
  ground_truth: "Line 1 opened in 2009.",
};
const ANSWER = {
  answer: "Line 1 opened in 2009 [c1].",
  contexts: [{ node_id: "c1", content: "Line 1 opened in 2009." }],
  citations: ["c1"],
};

/** A snapshot judging precomputed answers with `judges`, three item attempts, no waiting. */
async function snapshotFor(judges: string[], bot: unknown = { kind: "answers" }) {
  const config = await loadConfig({
    cwd: "/nonexistent",
    env: {
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      OPENAI_API_KEY: "k",
      RAGJUDGE_JUDGE_MODEL: "judge-model",
    },
  });
  const request = EvaluationRequestSchema.parse({
    question_set_id: "7d0c1f4e-8f1a-4a43-9d51-0c7a7e2b5a10",
    judges,
    retry: { attempts: 3, base_ms: 0, max_ms: 0 },
  });
  return evaluationSnapshot(request, config, null, {
    bot: bot as never,
    submittedVia: "cli",
  });
}

/** The judge role on the scripted server in prompt mode: no response_format to step down. */
const judgeClient = (maxRetries: number) =>
  scriptedClient(server, "judge", {
    roles: { judge: { model: "judge-model" } },
    structured_output: "prompt",
    max_retries: maxRetries,
    backoff_ms: 0,
    max_backoff_ms: 0,
  });

const requestsOf = (judge: "rubric" | "reference") =>
  server.requests.filter((r) =>
    judge === "reference"
      ? /ground truth/i.test(promptText(r))
      : !/ground truth/i.test(promptText(r)),
  ).length;

describe("runItem: judges", () => {
  it("asks each judge once on a 400: not retried by the client nor by the item", async () => {
    server.on({ reply: { status: 400, message: "bad request" } });
    const { write } = await runItem({
      question: QUESTION,
      bot: suppliedAnswerBot(ANSWER),
      snapshot: await snapshotFor(["rubric", "reference"]),
      judgeClient: judgeClient(2),
      signal: AbortSignal.timeout(30_000),
    });
    expect(write.status).toBe("JUDGE_ERROR");
    expect(requestsOf("rubric")).toBe(1);
    expect(requestsOf("reference")).toBe(1);
    expect(write.judges).toMatchObject({
      rubric: { outcome: "judge_error", error: { cause: "LlmHttpError", retryable: false } },
      reference: { outcome: "judge_error", error: { cause: "LlmHttpError", retryable: false } },
    });
  });

  it("prices every ask of a judge asked again for an unusable reply, not just the last", async () => {
    // The first reply is not JSON (re-asked once by the client, then once more by the item).
    server.on({ times: 2, reply: { content: "no verdict here", usage: USAGE } });
    server.on({ reply: { content: '{"score": 4, "reasoning": "Matches."}', usage: USAGE } });
    const snapshot = await snapshotFor(["reference"]);
    const { write, cost } = await runItem({
      question: QUESTION,
      bot: suppliedAnswerBot(ANSWER),
      snapshot: { ...snapshot, prices: { "judge-model": { input: 1, output: 10 } } },
      judgeClient: judgeClient(0),
      signal: AbortSignal.timeout(30_000),
    });
    expect(write.status).toBe("SCORED");
    const asked = requestsOf("reference");
    expect(asked).toBeGreaterThan(1);
    expect((write.usage as { models: unknown[] }).models).toEqual([
      {
        part: "judge",
        judge: "reference",
        role: "judge",
        model: "judge-model",
        calls: asked,
        prompt_tokens: 1000 * asked,
        cached_tokens: 0,
        completion_tokens: 10 * asked,
        cost_usd: ((1000 + 100) * asked) / 1e6,
      },
    ]);
    expect(cost?.cost_usd).toBeCloseTo((1100 * asked) / 1e6, 12);
  });

  it("asks each judge 1 + max_retries times on a 500: the item's 3 attempts do not multiply it", async () => {
    server.on({ reply: { status: 500, message: "boom" } });
    const { write } = await runItem({
      question: QUESTION,
      bot: suppliedAnswerBot(ANSWER),
      snapshot: await snapshotFor(["rubric", "reference"]),
      judgeClient: judgeClient(2),
      signal: AbortSignal.timeout(30_000),
    });
    expect(write.status).toBe("JUDGE_ERROR");
    expect(requestsOf("rubric")).toBe(3);
    expect(requestsOf("reference")).toBe(3);
    expect(write.judges).toMatchObject({
      rubric: { error: { cause: "LlmHttpError", retryable: true } },
    });
    expect(write.error).toMatch(/HTTP 500 .* after 3 attempt\(s\)/);
  });

  it("skips the reference judge without a ground truth: a typed skip, no call, no error", async () => {
    server.on({ reply: { content: '{"score": 4, "reasoning": "fine"}' } });
    const { write } = await runItem({
      question: { ...QUESTION, ground_truth: "" },
      bot: suppliedAnswerBot(ANSWER),
      snapshot: await snapshotFor(["reference"]),
      judgeClient: judgeClient(2),
      signal: AbortSignal.timeout(30_000),
    });
    expect(write).toMatchObject({ status: "SCORED", error: null, score: null });
    expect(write.judges).toEqual({
      reference: { outcome: "skipped", reason: "the question has no ground truth" },
    });
    expect(server.requests).toHaveLength(0);
  });
});

const bots: Server[] = [];
afterAll(() => Promise.all(bots.map((b) => new Promise((done) => b.close(done)))));

/** An HTTP bot answering every request with `body` (status 200), counting the requests. */
async function botReplying(body: string) {
  const state = { requests: 0 };
  const bot = createServer((req, res) => {
    state.requests++;
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  });
  bots.push(bot);
  await new Promise<void>((resolve) => bot.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(bot.address() as AddressInfo).port}/ask`;
  return { url, state };
}

describe("runItem: bots", () => {
  it("makes a 100,000-deep reply a BOT_ERROR naming the depth, asked once", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const { url, state } = await botReplying(`{"answer":"a","tool_calls":[${deep}]}`);
    const snapshot = await snapshotFor(["offline"], { kind: "http", url, retries: 2 });
    const { write, botError } = await runItem({
      question: QUESTION,
      bot: createHttpBot({ url, retries: 2, network: OPEN_BOT_NETWORK }),
      snapshot,
      signal: AbortSignal.timeout(30_000),
    });
    expect(write.status).toBe("BOT_ERROR");
    expect(botError).toBe("invalid_response");
    expect(write.error).toMatch(
      /^bot invalid_response: .*tool_calls: nested deeper than 64 levels/,
    );
    expect(state.requests).toBe(1);
  });

  it("says a refused bot is unreachable by its type, not by its message", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((done) => probe.close(done));
    const url = `http://127.0.0.1:${port}/ask`;
    const { write, botError } = await runItem({
      question: QUESTION,
      bot: createHttpBot({ url, retries: 0, network: OPEN_BOT_NETWORK }),
      snapshot: await snapshotFor(["offline"], { kind: "http", url, retries: 0 }),
      signal: AbortSignal.timeout(30_000),
    });
    expect(write.status).toBe("BOT_ERROR");
    expect(botError).toBe("unreachable");
  });
});
