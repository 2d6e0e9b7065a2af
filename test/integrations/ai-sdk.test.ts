// ragjudge/ai-sdk through the real AI SDK (`ai` 7, `@ai-sdk/openai-compatible`) against the
// scripted OpenAI-compatible server: generateText and streamText, in each mode.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRecorder } from "../../src/client/index.js";
import { createApp, listen } from "../../src/server/index.js";
import {
  createApiToken,
  findOrCreateUser,
  listAnswerRecords,
  type Store,
} from "../../src/store/index.js";
import { isChat } from "../support/scripted-llm.js";
import { snippetAndExample } from "../support/docs-snippet.js";
import { openTestStore } from "../support/stores.js";
import { useScriptedLlm } from "../support/use-scripted-llm.js";

const execFileAsync = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;
const NODE_MAJOR = Number(process.versions.node.split(".")[0]);
/** `ai` 7 declares Node >= 22; on Node 20 this file is skipped, and says so. */
const TOO_OLD = NODE_MAJOR < 22;

const SOURCES = [
  { id: "bridge", content: "The Lanting bridge was built in 1870 by the river guild." },
  { id: "museum", content: "Tickets to the bridge museum cost 12 yuan for adults." },
];
const GOOD = "The Lanting bridge was built in 1870 by the river guild [1].";
const WITH_WRONG_FIGURE = `${GOOD} Adult tickets cost 15 yuan [2].`;
const UNSUPPORTED = "The mayor painted dragons on every lamppost during the winter festival.";

const call = {
  prompt: "When was the bridge built?",
  providerOptions: { ragjudge: { sources: SOURCES } },
};

type Ai = typeof import("ai");
type Middleware = typeof import("../../src/integrations/ai-sdk/index.js");

describe.skipIf(TOO_OLD)(
  `ragjudge/ai-sdk with the AI SDK${TOO_OLD ? " (skipped: ai 7 needs Node >= 22; CI's Node 24 leg runs it)" : ""}`,
  () => {
    const llm = useScriptedLlm();
    let ai: Ai;
    let guardModule: Middleware;
    let createOpenAICompatible: typeof import("@ai-sdk/openai-compatible").createOpenAICompatible;

    beforeAll(async () => {
      ai = await import("ai");
      guardModule = await import("../../src/integrations/ai-sdk/index.js");
      ({ createOpenAICompatible } = await import("@ai-sdk/openai-compatible"));
    });

    /** A model answering `answer`, wrapped in the guard with `options`. */
    function guarded(answer: string, options: Parameters<Middleware["ragjudgeGuard"]>[0] = {}) {
      llm.on({ when: isChat, reply: { content: answer } });
      const provider = createOpenAICompatible({
        name: "scripted",
        baseURL: llm.baseUrl,
        apiKey: "k",
      });
      return ai.wrapLanguageModel({
        model: provider.chatModel("scripted-model"),
        middleware: guardModule.ragjudgeGuard(options),
      });
    }

    it("generateText: repairs an answer stating a figure no source holds, verdict in providerMetadata", async () => {
      const result = await ai.generateText({
        model: guarded(WITH_WRONG_FIGURE, { mode: "repair" }),
        ...call,
      });
      expect(result.text).toBe(GOOD);
      expect(result.providerMetadata?.ragjudge).toMatchObject({
        decision: "repair",
        status: "fail",
        reasons: [
          {
            check: "numeric_consistency",
            message: "1 of 2 figures are not in the cited passages: 15.",
          },
        ],
      });
    });

    it("generateText: blocks an unsupported answer with a typed error carrying the reasons", async () => {
      const error = await ai
        .generateText({ model: guarded(UNSUPPORTED, { mode: "block" }), ...call, maxRetries: 0 })
        .catch((e: unknown) => e);
      expect(guardModule.RagjudgeBlockedError.isInstance(error)).toBe(true);
      const blocked = error as InstanceType<Middleware["RagjudgeBlockedError"]>;
      expect(blocked.result.decision).toBe("block");
      expect(blocked.message).toContain("The answer cites none of the retrieved passages.");
    });

    it("generateText: annotate leaves the text as it is and reads sources from a function", async () => {
      const result = await ai.generateText({
        model: guarded(WITH_WRONG_FIGURE, { mode: "annotate", sources: () => SOURCES }),
        prompt: "When was the bridge built?",
      });
      expect(result.text).toBe(WITH_WRONG_FIGURE);
      expect(result.providerMetadata?.ragjudge).toMatchObject({
        decision: "block",
        status: "fail",
      });
    });

    /** streamText's parts in order, with "verdict" where onVerdict ran. */
    async function streamEvents(answer: string, mode: "annotate" | "block" | "repair") {
      const events: string[] = [];
      const result = ai.streamText({
        model: guarded(answer, { mode, onVerdict: () => void events.push("verdict") }),
        ...call,
        onError: () => {},
      });
      let text = "";
      let error: unknown;
      for await (const part of result.fullStream) {
        if (part.type === "text-delta") {
          events.push("text");
          text += part.text;
        }
        if (part.type === "error") error = part.error;
      }
      const metadata = error ? undefined : (await result.providerMetadata)?.ragjudge;
      return { events, text, error, metadata };
    }

    it("streamText annotate: text streams through before the verdict, which comes with the finish", async () => {
      const { events, text, metadata } = await streamEvents(WITH_WRONG_FIGURE, "annotate");
      expect(text).toBe(WITH_WRONG_FIGURE);
      expect(events.indexOf("text")).toBeLessThan(events.indexOf("verdict"));
      expect(events.filter((e) => e === "text").length).toBeGreaterThan(1);
      expect(metadata).toMatchObject({ decision: "block" });
    });

    it("streamText repair: nothing is released before the verdict, then the repaired text", async () => {
      const { events, text, metadata } = await streamEvents(WITH_WRONG_FIGURE, "repair");
      expect(events[0]).toBe("verdict");
      expect(text).toBe(GOOD);
      expect(metadata).toMatchObject({ decision: "repair" });
    });

    it("streamText block: a blocked answer releases no text and ends in the typed error", async () => {
      const { events, text, error } = await streamEvents(UNSUPPORTED, "block");
      expect(events).toEqual(["verdict"]);
      expect(text).toBe("");
      expect(guardModule.RagjudgeBlockedError.isInstance(error)).toBe(true);
    });

    it("streamText block: a sound answer is released whole after the verdict", async () => {
      const { events, text, metadata } = await streamEvents(GOOD, "block");
      expect(events[0]).toBe("verdict");
      expect(text).toBe(GOOD);
      expect(metadata).toMatchObject({ decision: "allow", status: "pass" });
    });
  },
);

describe.skipIf(TOO_OLD)(
  `ragjudge/ai-sdk recording on a ragjudge server${TOO_OLD ? " (skipped: ai 7 needs Node >= 22; CI's Node 24 leg runs it)" : ""}`,
  () => {
    const llm = useScriptedLlm();
    let store: Store;
    let server: Awaited<ReturnType<typeof listen>>;

    beforeAll(async () => {
      store = await openTestStore("pglite");
      server = await listen(createApp({ db: store.db }), { port: 0 });
    });
    afterAll(async () => {
      await server.close();
      await store.close();
    });

    it("records each checked answer, streamed or not, with its model, tokens and the server's own gate", async () => {
      const ai = await import("ai");
      const { ragjudgeGuard } = await import("../../src/integrations/ai-sdk/index.js");
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      const userId = (await findOrCreateUser(store.db, "ai-sdk-recorder")).id;
      const recorder = createRecorder({
        url: server.url,
        token: await createApiToken(store.db, userId),
      });
      llm.on({ when: isChat, reply: { content: WITH_WRONG_FIGURE } });
      const model = ai.wrapLanguageModel({
        model: createOpenAICompatible({
          name: "scripted",
          baseURL: llm.baseUrl,
          apiKey: "k",
        }).chatModel("scripted-model"),
        middleware: ragjudgeGuard({
          mode: "repair",
          record: recorder,
          recordAs: { service: "shop-assistant", metadata: { route: "faq" } },
        }),
      });
      await ai.generateText({ model, ...call });
      const streamed = ai.streamText({ model, ...call });
      for await (const _chunk of streamed.textStream) void _chunk;
      expect(await recorder.close()).toEqual({ accepted: 2, duplicates: 0, refused: 0 });

      const records = await listAnswerRecords(store.db, userId, { limit: 10 });
      expect(records).toHaveLength(2);
      for (const record of records) {
        expect(record).toMatchObject({
          model: "scripted-model",
          service: "shop-assistant",
          gate_status: "fail",
        });
        // What was recorded is what the model said, not the repaired text the user saw.
        const input = record.input as {
          generation_output: { answer: string };
          retrieval_hits: { node_id: string }[];
        };
        expect(input.generation_output.answer).toBe(WITH_WRONG_FIGURE);
        expect(input.retrieval_hits.map((hit) => hit.node_id)).toEqual(["bridge", "museum"]);
        expect(record.prompt_tokens).toBeGreaterThan(0);
        expect(record.completion_tokens).toBeGreaterThan(0);
      }
    });
  },
);

describe.skipIf(TOO_OLD)(
  `examples/ai-sdk${TOO_OLD ? " (skipped: ai 7 needs Node >= 22; CI's Node 24 leg runs it)" : ""}`,
  () => {
    const llm = useScriptedLlm();

    it("runs against the scripted server and prints the repaired answer and why", async () => {
      llm.on({ when: isChat, reply: { content: WITH_WRONG_FIGURE } });
      const { stdout } = await execFileAsync(process.execPath, ["examples/ai-sdk/guard.mjs"], {
        cwd: ROOT,
        env: { ...process.env, OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: "k", MODEL: "m" },
      });
      expect(stdout).toBe(
        `repair: ${GOOD}\n  why: 1 of 2 figures are not in the cited passages: 15.\nstreamed, repair: ${GOOD}\n`,
      );
    });
  },
);

it("docs/integrations.md's AI SDK snippet is copied line for line from the example the test runs", () => {
  const { lines, example } = snippetAndExample("## The Vercel AI SDK", "examples/ai-sdk/guard.mjs");
  expect(lines.length).toBeGreaterThan(10);
  for (const line of lines) expect(example, line).toContain(line);
});
