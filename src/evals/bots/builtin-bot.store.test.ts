// builtinBotFor over the real built-in bot and store: examples/corpus ingested, asked offline
// (no LLM: the extractive generator and the offline reviewer). PGlite only: the adapter reads
// AskResult, which does not depend on the storage kind (rag's own tests cover both).

import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isChat, promptText, startScriptedLlm } from "../../../test/support/scripted-llm.js";
import { openTestStore } from "../../../test/support/stores.js";
import {
  createLlmClient,
  type LlmRole,
  ProviderLimiters,
  parseLlmConfig,
  resolveModelConfig,
} from "../../llm/index.js";
import { type BuiltinBot, createBuiltinBot, parseLoopsConfig } from "../../rag/index.js";
import { findOrCreateUser, type Store } from "../../store/index.js";
import { builtinBotFor } from "./builtin-bot.js";
import { BotError } from "./types.js";

const CORPUS = fileURLToPath(new URL("../../../examples/corpus", import.meta.url));

let store: Store;
let workspaceId: string;
let builtin: BuiltinBot;
// No observations file: a test must not write into the working directory.
const loops = parseLoopsConfig({ observations: { path: null } });
beforeAll(async () => {
  store = await openTestStore("pglite");
  workspaceId = (await findOrCreateUser(store.db, "bots-test")).id;
  builtin = createBuiltinBot({ db: store.db, workspaceId, loops });
  const ingested = await builtin.ingestPaths([CORPUS], "lanting");
  expect(ingested.problems).toEqual([]);
});
afterAll(async () => {
  await store?.close();
});

const signal = () => AbortSignal.timeout(20_000);

describe("builtinBotFor", () => {
  it("adapts an offline answer: contexts from the hits, every citation among them", async () => {
    const bot = builtinBotFor(builtin, "lanting");
    expect(bot.describe()).toEqual({ kind: "builtin", name: "builtin:lanting" });

    const answer = await bot.ask({
      question: "When did the Lanting Metro open its Line 1?",
      signal: signal(),
    });
    expect(answer.answer).toContain("2009");
    expect(answer.contexts.length).toBeGreaterThan(0);
    expect(answer.citations.length).toBeGreaterThan(0);
    const ids = new Set(answer.contexts.map((c) => c.node_id));
    for (const id of answer.citations) expect(ids.has(id)).toBe(true);

    const cited = answer.contexts.find((c) => c.node_id === answer.citations[0]);
    expect(cited?.content).toContain("18 September 2009");
    expect(cited?.source).toMatch(/^(lexical|vector|memory)$/);
    expect(typeof cited?.score).toBe("number");
    expect(cited?.document_id).toEqual(expect.any(String));

    expect(answer.trace.length).toBeGreaterThan(0);
    expect(answer.latency_ms).toBeGreaterThan(0);
    // Offline: no LLM call was made, so there is no usage to report.
    expect(answer.usage).toBeUndefined();
    expect(answer.builtin?.gate.status).toMatch(/^(pass|partial|fail)$/);
    expect(answer.builtin?.action).toBe(answer.builtin?.gate.action);
    expect(answer.builtin?.answer_exit).toEqual(expect.any(String));
    expect(answer.builtin?.quality_exit).toEqual(expect.any(String));
  });

  it("a missing collection is unreachable, for probe and for ask", async () => {
    const bot = builtinBotFor(builtin, "no-such-collection");
    const probed = await bot.probe!(signal()).catch((e: unknown) => e);
    expect(probed).toBeInstanceOf(BotError);
    expect(probed).toMatchObject({ kind: "unreachable" });
    expect((probed as Error).message).toContain("no-such-collection");

    const asked = await bot.ask({ question: "Anything?", signal: signal() }).catch((e) => e);
    expect(asked).toMatchObject({ kind: "unreachable" });
    await expect(builtinBotFor(builtin, "lanting").probe!(signal())).resolves.toBeUndefined();
  });
});

describe("builtinBotFor with LLM roles (the scripted OpenAI-compatible server)", () => {
  it("sums the usage of the generator's and the judge's calls", async () => {
    const llmServer = await startScriptedLlm();
    try {
      const limiters = new ProviderLimiters();
      const client = (role: LlmRole) =>
        createLlmClient(
          resolveModelConfig(
            parseLlmConfig({
              base_url: llmServer.baseUrl,
              max_retries: 0,
              roles: { [role]: { model: `${role}-model` } },
            }),
            role,
          ),
          { limiters },
        );
      const byModel = (model: string) => (r: { body: { model?: string } }) =>
        r.body.model === model;
      llmServer.on({
        when: byModel("generator-model"),
        // Cites the first chunk the prompt shows, by the reference the prompt gives it.
        reply: (request) => {
          const ref = /^\[([^\]]+)\] /m.exec(promptText(request))?.[1] ?? "1";
          return { content: `Line 1 of the Lanting Metro opened on 18 September 2009 [${ref}].` };
        },
      });
      llmServer.on({
        when: byModel("judge-model"),
        reply: {
          json: {
            reasonableness: { passed: true, problems: [] },
            evidence: { passed: true, problems: [] },
          },
        },
      });
      const withLlm = createBuiltinBot({
        db: store.db,
        workspaceId,
        loops,
        llm: { generator: client("generator"), judge: client("judge") },
      });
      const answer = await builtinBotFor(withLlm, "lanting").ask({
        question: "When did the Lanting Metro open its Line 1?",
        signal: signal(),
      });
      const chats = llmServer.requests.filter(isChat);
      expect(chats.length).toBeGreaterThanOrEqual(2);
      expect(answer.usage?.calls).toBe(chats.length);
      expect(answer.usage?.prompt_tokens).toBeGreaterThan(0);
      expect(answer.usage?.completion_tokens).toBeGreaterThan(0);
      expect(answer.answer).toContain("18 September 2009");
      expect(answer.citations).toHaveLength(1);
      expect(answer.contexts.map((c) => c.node_id)).toContain(answer.citations[0]);
    } finally {
      await llmServer.close();
    }
  });
});
