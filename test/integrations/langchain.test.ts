// ragjudge/langchain through real LangChain.js (@langchain/core 1.x LCEL, @langchain/openai's
// ChatOpenAI) and real LangGraph.js, against the scripted OpenAI-compatible server and a real
// ragjudge server: the callback handler records one answer per question (hits, answer, verdict),
// the judges run as runnables, and a ragjudge collection serves as a LangChain retriever.

import type { DocumentInterface } from "@langchain/core/documents";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import {
  RunnableParallel,
  RunnablePassthrough,
  type RunnableConfig,
  RunnableSequence,
} from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createRecorder } from "../../src/client/index.js";
import { guard, EvaluatorInputSchema } from "../../src/gate/index.js";
import {
  offlineJudgeRunnable,
  RagjudgeCallbackHandler,
  ragjudgeRetriever,
  referenceJudgeRunnable,
  reviewJudgeRunnable,
} from "../../src/integrations/langchain/index.js";
import { offline } from "../../src/judges/index.js";
import { createBuiltinBot } from "../../src/rag/index.js";
import { createApp, listen } from "../../src/server/index.js";
import {
  createApiToken,
  findOrCreateUser,
  getChunksWithDocuments,
  listAnswerRecords,
  type Store,
} from "../../src/store/index.js";
import { isChat, promptText, type RecordedRequest } from "../support/scripted-llm.js";
import { openTestStore } from "../support/stores.js";
import { databaseModules, loadedModules } from "../support/loaded-modules.js";
import { snippetAndExample } from "../support/docs-snippet.js";
import { useScriptedLlm } from "../support/use-scripted-llm.js";

const llm = useScriptedLlm();
const execFileAsync = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;

const METRO = "When did the Lanting Metro open Line 1?";
const FERRY = "How often does the Gull Island ferry leave the Old Quay?";
const METRO_ANSWER = "The Lanting Metro opened Line 1 on 18 September 2009 [1].";
const FERRY_ANSWER = "The Gull Island ferry leaves the Old Quay every 45 minutes [1].";

let store: Store;
let server: Awaited<ReturnType<typeof listen>>;
let workspaceId = "";
let token = "";
let collectionId = "";

beforeAll(async () => {
  store = await openTestStore("pglite");
  server = await listen(createApp({ db: store.db }), { port: 0 });
  workspaceId = (await findOrCreateUser(store.db, "langchain-user")).id;
  token = await createApiToken(store.db, workspaceId);
  const bot = createBuiltinBot({ db: store.db, workspaceId });
  const ingested = await bot.ingestPaths(
    [`${ROOT}examples/corpus/lanting-transport.md`, `${ROOT}examples/corpus/lanting-history.md`],
    "lanting",
  );
  collectionId = ingested.collection_id;
});
afterAll(async () => {
  await server?.close();
  await store?.close();
});

function chatModel(model: string) {
  return new ChatOpenAI({
    model,
    apiKey: "k",
    configuration: { baseURL: llm.baseUrl },
    maxRetries: 0,
  });
}
const asks = (question: string) => (r: RecordedRequest) =>
  isChat(r) && promptText(r).includes(question);
function scriptAnswers() {
  llm.on({ when: asks(METRO), reply: { content: METRO_ANSWER } });
  llm.on({ when: asks(FERRY), reply: { content: FERRY_ANSWER } });
}

const hitIds = (row: { input: object }) =>
  (row.input as { retrieval_hits: Array<{ node_id: string }> }).retrieval_hits.map(
    (h) => h.node_id,
  );
const gateDecision = (row: { metadata: object }) =>
  (row.metadata as { gate_decision?: string }).gate_decision;

/**
 * The records stored for this user since `since`, in the order of `questions` (one batch's rows
 * share a receipt time, so the store's order among them is arbitrary).
 */
async function storedSince(since: Set<string>, questions: string[]) {
  const rows = await listAnswerRecords(store.db, workspaceId, { limit: 100 });
  return rows
    .filter((row) => !since.has(row.id))
    .sort((a, b) => questions.indexOf(a.query ?? "") - questions.indexOf(b.query ?? ""));
}
async function storedIds() {
  return new Set((await listAnswerRecords(store.db, workspaceId, { limit: 100 })).map((r) => r.id));
}

const numbered = ({ docs }: { docs: DocumentInterface[] }) =>
  docs.map((d, i) => `[${i + 1}] ${d.pageContent}`).join("\n");
const prompt = ChatPromptTemplate.fromMessages([
  ["system", "Answer from these passages only; cite them as [1], [2].\n\n{context}"],
  ["human", "{question}"],
]);

describe("ragjudgeRetriever", () => {
  it("returns chunks of the ingested collection, by name or id, with their ids and scores", async () => {
    const retriever = ragjudgeRetriever("lanting", { store, workspaceId, topK: 3 });
    const docs = await retriever.invoke(METRO);
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.length).toBeLessThanOrEqual(3);
    expect(docs[0]!.pageContent).toContain("Line 1");
    // Each document is a stored chunk of the collection, under its own id.
    const ids = docs.map((d) => d.id!);
    const rows = await getChunksWithDocuments(store.db, workspaceId, collectionId, ids);
    expect(rows.map((r) => r.content).sort()).toEqual(docs.map((d) => d.pageContent).sort());
    for (const doc of docs) {
      expect(doc.metadata.node_id).toBe(doc.id);
      expect(doc.metadata.relevance_score).toBeGreaterThan(0);
      expect(doc.metadata.retrieval_source).toBe("lexical");
    }
    const byId = await ragjudgeRetriever(collectionId, { store, workspaceId, topK: 3 }).invoke(
      METRO,
    );
    expect(byId.map((d) => d.id)).toEqual(ids);
  });

  it("an unknown collection, or another user's, is an error naming it", async () => {
    const other = (await findOrCreateUser(store.db, "someone-else")).id;
    await expect(
      ragjudgeRetriever("nowhere", { store, workspaceId }).invoke(METRO),
    ).rejects.toThrow(/nowhere/);
    await expect(
      ragjudgeRetriever(collectionId, { store, workspaceId: other }).invoke(METRO),
    ).rejects.toThrow(collectionId);
  });
});

describe("RagjudgeCallbackHandler", () => {
  it("an LCEL chain: one record per question on the server, with the retrieved documents as hits, the answer and the gate's verdict", async () => {
    scriptAnswers();
    const retriever = ragjudgeRetriever("lanting", { store, workspaceId, topK: 3 });
    const chain = RunnableSequence.from([
      { question: new RunnablePassthrough(), docs: retriever },
      RunnablePassthrough.assign({ context: numbered }),
      prompt,
      chatModel("generator"),
      new StringOutputParser(),
    ]);
    const answers: Array<{ runId: string; decision: string | undefined }> = [];
    const handler = new RagjudgeCallbackHandler({
      recorder: createRecorder({ url: server.url, token, flushIntervalMs: 60_000 }),
      gate: true,
      service: "lanting-guide",
      collection: "lanting",
      onAnswer: (record, gate) => {
        answers.push({ runId: record.message_id, decision: gate?.decision });
      },
    });
    const before = await storedIds();

    const metroDocs = await retriever.invoke(METRO);
    const ferryDocs = await retriever.invoke(FERRY);
    expect(await chain.invoke(METRO, { callbacks: [handler] })).toBe(METRO_ANSWER);
    expect(await chain.invoke(FERRY, { callbacks: [handler] })).toBe(FERRY_ANSWER);
    expect(await handler.flush()).toEqual({ accepted: 2, duplicates: 0, refused: 0 });

    const rows = await storedSince(before, [METRO, FERRY]);
    expect(rows.map((r) => [r.query, r.answer])).toEqual([
      [METRO, METRO_ANSWER],
      [FERRY, FERRY_ANSWER],
    ]);
    expect(hitIds(rows[0]!)).toEqual(metroDocs.map((d) => d.id));
    expect(hitIds(rows[1]!)).toEqual(ferryDocs.map((d) => d.id));
    for (const row of rows) {
      expect(row).toMatchObject({ source: "api", service: "lanting-guide", model: "generator" });
      expect(row.trace_id).toBe(row.message_id);
      expect(row.latency_ms).toBeGreaterThanOrEqual(0);
    }
    // The gate: the metro answer is supported; the ferry's "45 minutes" is in no passage.
    expect(answers.map((a) => a.decision)).toEqual(["allow", "block"]);
    expect(rows.map(gateDecision)).toEqual(["allow", "block"]);
    expect(rows.map((r) => r.gate_action)).toEqual(["show", "refuse"]);
    const ferryVerdict = handler.verdictOf(answers[1]!.runId)!;
    expect(ferryVerdict.reasons.map((r) => r.check)).toContain("numeric_consistency");
    // The same verdict the guardrail gives the stored record.
    expect(ferryVerdict.decision).toBe(guard(EvaluatorInputSchema.parse(rows[1]!.input)).decision);
  });

  it("a LangGraph graph: one record per invocation, the thread as the conversation, the final retrieval as hits", async () => {
    scriptAnswers();
    const retriever = ragjudgeRetriever("lanting", { store, workspaceId, topK: 2 });
    const model = chatModel("graph-generator");
    const State = Annotation.Root({
      question: Annotation<string>,
      docs: Annotation<DocumentInterface[]>,
      answer: Annotation<string>,
    });
    const graph = new StateGraph(State)
      .addNode("retrieve", async (state, config: RunnableConfig) => ({
        docs: await retriever.invoke(state.question, config),
      }))
      .addNode("generate", async (state, config: RunnableConfig) => {
        const messages = await prompt.invoke(
          { question: state.question, context: numbered(state) },
          config,
        );
        const reply = await model.invoke(messages, config);
        return { answer: reply.text };
      })
      .addEdge(START, "retrieve")
      .addEdge("retrieve", "generate")
      .addEdge("generate", END)
      .compile();
    const handler = new RagjudgeCallbackHandler({
      recorder: createRecorder({ url: server.url, token, flushIntervalMs: 60_000 }),
      gate: true,
    });
    const before = await storedIds();

    for (const [thread, question] of [
      ["thread-metro", METRO],
      ["thread-ferry", FERRY],
    ] as const) {
      await graph.invoke(
        { question },
        { callbacks: [handler], configurable: { thread_id: thread } },
      );
    }
    await handler.flush();

    const rows = await storedSince(before, [METRO, FERRY]);
    expect(rows.map((r) => [r.conversation_id, r.query, r.answer, r.model])).toEqual([
      ["thread-metro", METRO, METRO_ANSWER, "graph-generator"],
      ["thread-ferry", FERRY, FERRY_ANSWER, "graph-generator"],
    ]);
    const metroDocs = await retriever.invoke(METRO);
    expect(hitIds(rows[0]!)).toEqual(metroDocs.map((d) => d.id));
    expect(rows.map(gateDecision)).toEqual(["allow", "block"]);
  });

  it("a LangGraph ReAct agent: the model calls the retriever as a tool, and the record holds what the tool found", async () => {
    const retriever = ragjudgeRetriever("lanting", { store, workspaceId, topK: 2 });
    const searchLanting = tool(
      async ({ query }: { query: string }, config: RunnableConfig) =>
        numbered({ docs: await retriever.invoke(query, config) }),
      {
        name: "search_lanting",
        description: "Searches the Lanting city guide.",
        schema: z.object({ query: z.string() }),
      },
    );
    const toolWasAnswered = (r: RecordedRequest) =>
      (r.body.messages ?? []).some((m) => m.role === "tool");
    llm.on({
      when: (r) => asks(METRO)(r) && !toolWasAnswered(r),
      reply: {
        toolCalls: [{ name: "search_lanting", arguments: { query: "Metro Line 1 opening" } }],
      },
    });
    llm.on({ when: (r) => asks(METRO)(r) && toolWasAnswered(r), reply: { content: METRO_ANSWER } });
    const agent = createReactAgent({ llm: chatModel("agent-model"), tools: [searchLanting] });
    const handler = new RagjudgeCallbackHandler({
      recorder: createRecorder({ url: server.url, token, flushIntervalMs: 60_000 }),
      gate: true,
    });
    const before = await storedIds();

    const result = await agent.invoke(
      { messages: [{ role: "user", content: METRO }] },
      { callbacks: [handler], configurable: { thread_id: "agent-thread" } },
    );
    await handler.flush();

    expect(result.messages.at(-1)?.content).toBe(METRO_ANSWER);
    // The model was asked twice: once to choose the tool, once with the tool's passages.
    const toolReply = llm.requests
      .filter(isChat)
      .at(-1)
      ?.body.messages?.find((m) => m.role === "tool");
    expect(toolReply?.content).toContain("18 September 2009");
    const rows = await storedSince(before, [METRO]);
    expect(rows.map((r) => [r.conversation_id, r.answer, r.model])).toEqual([
      ["agent-thread", METRO_ANSWER, "agent-model"],
    ]);
    const found = await retriever.invoke("Metro Line 1 opening");
    expect(hitIds(rows[0]!)).toEqual(found.map((d) => d.id));
    expect(rows.map(gateDecision)).toEqual(["allow"]);
  });

  it("batch and stream: interleaved root runs each give their own record", async () => {
    scriptAnswers();
    llm.latencyMs = 50; // both questions are in flight at once
    const retriever = ragjudgeRetriever("lanting", { store, workspaceId, topK: 3 });
    const chain = RunnableSequence.from([
      { question: new RunnablePassthrough(), docs: retriever },
      RunnablePassthrough.assign({ context: numbered }),
      prompt,
      chatModel("generator"),
      new StringOutputParser(),
    ]);
    const records: Array<[string | undefined, string, string[]]> = [];
    const handler = new RagjudgeCallbackHandler({
      recorder: null,
      onAnswer: (record) => {
        const hits = record.retrieval_hits.map((h) => h.node_id);
        records.push([record.retrieval_record.query, record.generation_output.answer, hits]);
      },
    });
    const expected = [
      [METRO, METRO_ANSWER, (await retriever.invoke(METRO)).map((d) => d.id!)],
      [FERRY, FERRY_ANSWER, (await retriever.invoke(FERRY)).map((d) => d.id!)],
    ];

    await chain.batch([METRO, FERRY], { callbacks: [handler] });
    expect(llm.maxInFlight).toBe(2);
    expect([...records].sort()).toEqual([...expected].sort());

    records.length = 0;
    let streamed = "";
    for await (const chunk of await chain.stream(FERRY, { callbacks: [handler] }))
      streamed += chunk;
    expect(streamed).toBe(FERRY_ANSWER);
    expect(records).toEqual([expected[1]]);
  });

  it("a failed run records nothing; with recorder: null it gates without a server", async () => {
    llm.on({ when: isChat, reply: { status: 400, message: "bad request" } });
    const verdicts: string[] = [];
    const handler = new RagjudgeCallbackHandler({
      recorder: null,
      gate: true,
      onAnswer: (_record, gate) => void verdicts.push(gate!.decision),
    });
    const chain = RunnableSequence.from([
      { question: new RunnablePassthrough(), context: () => "" },
      prompt,
      chatModel("failing"),
    ]);
    await expect(chain.invoke(METRO, { callbacks: [handler] })).rejects.toThrow();
    expect(verdicts).toEqual([]);

    llm.reset();
    llm.on({ when: isChat, reply: { content: "I cannot answer that." } });
    await chain.invoke(METRO, { callbacks: [handler] });
    expect(verdicts).toHaveLength(1);
  });
});

describe("judges as runnables", () => {
  const input = {
    question: METRO,
    answer: METRO_ANSWER,
    contexts: [] as DocumentInterface[],
    ground_truth: "Line 1 opened on 18 September 2009.",
  };

  it("offlineJudgeRunnable returns the offline judge's result, reading Documents as contexts", async () => {
    const docs = await ragjudgeRetriever("lanting", { store, workspaceId, topK: 3 }).invoke(METRO);
    const result = await offlineJudgeRunnable().invoke({ ...input, contexts: docs });
    expect(result).toEqual(
      offline({
        ...input,
        contexts: docs.map((d) => ({ content: d.pageContent, node_id: d.id! })),
      }),
    );
    expect(result.verdict.exact_match).toBe(0);
    expect(result.verdict.groundedness).toBeGreaterThan(0.5);
  });

  it("review and reference judges run on a LangChain chat model, in parallel after a chain", async () => {
    llm.on({
      when: (r) => isChat(r) && promptText(r).includes("strict reviewer"),
      reply: {
        json: {
          reasonableness: { passed: true, problems: [] },
          evidence: { passed: false, problems: ["Cite the passage for the date."] },
        },
      },
    });
    llm.on({
      when: (r) => isChat(r) && r.body.model === "judge",
      reply: { json: { score: 5, reasoning: "Same date as the reference." } },
    });
    const judge = chatModel("judge");
    const judges = RunnableParallel.from({
      review: reviewJudgeRunnable({ model: judge }),
      reference: referenceJudgeRunnable({ model: judge }),
    });
    const docs = await ragjudgeRetriever("lanting", { store, workspaceId, topK: 2 }).invoke(METRO);
    const result = await judges.invoke({ ...input, contexts: docs });
    expect(result.review).toMatchObject({
      name: "review",
      outcome: "ok",
      passed: false,
      verdict: { passed: false, suggestions: ["Cite the passage for the date."] },
      model: "judge",
    });
    expect(result.reference).toMatchObject({ name: "reference", outcome: "ok", raw_score: 5 });
    // The review judge saw the retrieved documents.
    const reviewPrompt = promptText(
      llm.requests.find((r) => isChat(r) && promptText(r).includes("strict reviewer"))!,
    );
    expect(reviewPrompt).toContain(docs[0]!.pageContent.slice(0, 60));
  });

  it("bad input is an error naming the field", async () => {
    await expect(offlineJudgeRunnable().invoke({ question: " ", answer: "x" })).rejects.toThrow(
      /question/,
    );
  });
});

describe("examples/langchain", () => {
  it("record-chain.mjs runs against the scripted server and a ragjudge server", async () => {
    // The question is the last message: the passages in the system prompt may name either.
    const lastAsks = (question: string) => (r: RecordedRequest) =>
      isChat(r) && (r.body.messages?.at(-1)?.content ?? "").includes(question);
    llm.on({
      when: lastAsks("Lanting bridge"),
      reply: { content: "The Lanting bridge was built in 1870 by the river guild [1]." },
    });
    llm.on({ when: lastAsks("museum"), reply: { content: "Adult tickets cost 15 yuan [1]." } });
    const before = await storedIds();
    const { stdout } = await execFileAsync(
      process.execPath,
      ["examples/langchain/record-chain.mjs"],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          OPENAI_BASE_URL: llm.baseUrl,
          OPENAI_API_KEY: "k",
          MODEL: "m",
          RAGJUDGE_URL: server.url,
          RAGJUDGE_TOKEN: token,
        },
      },
    );
    expect(stdout).toBe(
      [
        "allow: The Lanting bridge was built in 1870 by the river guild [1].",
        "block: Adult tickets cost 15 yuan [1].",
        "recorded: 2 answers",
        "offline judge: passed=true, groundedness=1",
        "",
      ].join("\n"),
    );
    const rows = await storedSince(before, [
      "When was the Lanting bridge built?",
      "How much is a bridge museum ticket?",
    ]);
    expect(rows.map((r) => [r.service, r.query])).toEqual([
      ["lanting-guide", "When was the Lanting bridge built?"],
      ["lanting-guide", "How much is a bridge museum ticket?"],
    ]);
  });
});

it("docs/integrations.md's LangChain snippet is copied line for line from the example the test runs", () => {
  const { lines, example } = snippetAndExample(
    "## LangChain.js",
    "examples/langchain/record-chain.mjs",
  );
  expect(lines.length).toBeGreaterThan(20);
  for (const line of lines) expect(example, line).toContain(line);
});

it("ragjudge/langchain loads neither LangGraph nor the store, PGlite or the database bot", () => {
  const { stdout, loaded } = loadedModules(
    "ragjudge/langchain",
    "console.log(typeof m.RagjudgeCallbackHandler, typeof m.ragjudgeRetriever);",
  );
  expect(stdout).toBe("function function\n");
  expect(loaded.some((url) => url.includes("/@langchain/core/"))).toBe(true);
  const heavy = databaseModules(loaded, ["@langchain/langgraph", "ai"]);
  expect(heavy).toEqual([]);
});
