// ragjudge/langgraph through real LangGraph.js (@langchain/langgraph 1.x) and real LangChain chat
// models (@langchain/openai's ChatOpenAI) against the scripted OpenAI-compatible server: seed
// 001's quality loop and seed 000's answer loop, node by node.

import { ChatOpenAI } from "@langchain/openai";
import { MemorySaver } from "@langchain/langgraph";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VAGUE_QUERIES } from "../../bench/rewrite-quality.js";
import { createBuiltinBot, createRetriever } from "../../src/rag/index.js";
import {
  answerMachine,
  END,
  parseLoopsConfig,
  qualityMachine,
  runQualityLoop,
} from "../../src/rag/loops/index.js";
import { findOrCreateUser, type Store } from "../../src/store/index.js";
import {
  buildAnswerLoopGraph,
  buildQualityLoopGraph,
} from "../../src/integrations/langgraph/index.js";
import { isChat, promptText, type RecordedRequest } from "../support/scripted-llm.js";
import { openTestStore } from "../support/stores.js";
import { databaseModules, loadedModules } from "../support/loaded-modules.js";
import { snippetAndExample } from "../support/docs-snippet.js";
import { useScriptedLlm } from "../support/use-scripted-llm.js";

const llm = useScriptedLlm();
const execFileAsync = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;

function chatModel(model: string) {
  return new ChatOpenAI({
    model,
    apiKey: "k",
    configuration: { baseURL: llm.baseUrl },
    maxRetries: 0,
  });
}
const byModel = (model: string) => (r: RecordedRequest) => isChat(r) && r.body.model === model;
const requestsOf = (model: string) => llm.requests.filter(byModel(model));

/** One weak passage per retrieval: graded low whatever the query (score < 0.5, one source, 1 document). */
function weakRetriever() {
  const queries: string[] = [];
  const retrieve = async ({ query }: { query: string }) => {
    queries.push(query);
    return [
      {
        pageContent: `A note that mentions ${query} in passing.`,
        metadata: { relevance_score: 0.1, retrieval_source: "lexical" },
      },
    ];
  };
  return { queries, retrieve };
}

/** A run through `stream`: each node's update in order, and the final state. */
async function streamRun(
  graph: { stream: (input: never, options: never) => Promise<AsyncIterable<unknown>> },
  input: unknown,
  options: Record<string, unknown> = {},
) {
  const updates: Array<[string, Record<string, unknown>]> = [];
  let state: Record<string, unknown> = {};
  const stream = await graph.stream(
    input as never,
    { ...options, streamMode: ["updates", "values"] } as never,
  );
  for await (const [mode, chunk] of stream as AsyncIterable<[string, Record<string, unknown>]>) {
    if (mode === "values") state = chunk;
    else
      for (const [node, update] of Object.entries(chunk))
        updates.push([node, update as Record<string, unknown>]);
  }
  return { nodes: updates.map(([node]) => node), updates, state };
}

describe("buildQualityLoopGraph (seed 001)", () => {
  it("a low-grade query is rewritten at most twice, then generate answers", async () => {
    let rewrite = 0;
    llm.on({ when: byModel("rewriter"), reply: () => ({ content: `metro line ${++rewrite}` }) });
    llm.on({ when: byModel("generator"), reply: { content: "The metro has two lines [1]." } });
    const { queries, retrieve } = weakRetriever();
    const graph = buildQualityLoopGraph({
      retrieve,
      rewriter: chatModel("rewriter"),
      generate: chatModel("generator"),
    }).compile();

    const { nodes, state } = await streamRun(graph, { question: "metro" });
    expect(nodes).toEqual([
      ...["question_router", "retrieve", "grade_documents", "rewrite_query"],
      ...["question_router", "retrieve", "grade_documents", "rewrite_query"],
      ...["question_router", "retrieve", "grade_documents", "generate"],
    ]);
    expect(state.retry_count).toBe(2);
    expect((state.grades as { quality_grade: string }[]).map((g) => g.quality_grade)).toEqual([
      "low",
      "low",
      "low",
    ]);
    expect(state.original_queries).toEqual(["metro", "metro line 1"]);
    expect(queries).toEqual(["metro", "metro line 1", "metro line 2"]);
    expect(state.answer).toBe("The metro has two lines [1].");
    // The rewriter model was asked twice, each time about the query it rewrote.
    const asked = requestsOf("rewriter").map((r) => promptText(r));
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain("metro");
    expect(asked[1]).toContain("metro line 1");
  });

  it("a well-graded retrieval goes straight to generate, with no rewrite", async () => {
    const passages = Array.from({ length: 20 }, (_, i) => ({
      id: `p${i}`,
      content: `Passage ${i} about the metro.`,
      score: 0.9,
    }));
    const graph = buildQualityLoopGraph({
      retrieve: () => passages,
      generate: (state) => `answered from ${state.fused_results.length} passages`,
    }).compile();
    const state = await graph.invoke({ question: "metro" });
    expect(state.quality_grade).toBe("high");
    expect(state.retry_count).toBe(0);
    expect(state.answer).toBe("answered from 20 passages");
  });

  it('streams the generating model\'s tokens with streamMode "messages"', async () => {
    const answer = "The Lanting bridge was built in 1870 by the river guild [1].";
    llm.on({ when: byModel("generator"), reply: { content: answer } });
    const graph = buildQualityLoopGraph({
      retrieve: () => [{ id: "bridge", content: "The Lanting bridge was built in 1870." }],
      generate: chatModel("generator"),
    }).compile();
    const pieces: string[] = [];
    for await (const [message, meta] of await graph.stream(
      { question: "When was the bridge built?" },
      { streamMode: "messages" },
    )) {
      if (meta.langgraph_node === "generate") pieces.push(message.text);
    }
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join("")).toBe(answer);
    expect(requestsOf("generator")[0]?.body.stream).toBe(true);
  });

  it("the time budget ends the loop: the rewrite in flight is aborted and generate answers", async () => {
    llm.on({ when: byModel("rewriter"), reply: { hang: true } });
    const { queries, retrieve } = weakRetriever();
    const graph = buildQualityLoopGraph({
      retrieve,
      rewriter: chatModel("rewriter"),
      generate: (state) => `best effort for ${state.query}`,
      // Long enough for the steps before the hung call on a loaded 2-core machine.
      config: { quality: { budget_ms: 1_000 } },
    }).compile();

    const { nodes, updates } = await streamRun(graph, { question: "metro" });
    // The hung rewrite ends timed out; the loop's nodes then pass through to generate.
    expect(nodes.slice(0, 4)).toEqual([
      "question_router",
      "retrieve",
      "grade_documents",
      "rewrite_query",
    ]);
    expect(updates[3]?.[1]).toMatchObject({ timed_out: true });
    expect(nodes.filter((n) => n === "rewrite_query")).toHaveLength(1);
    expect(updates.at(-1)).toEqual(["generate", { answer: "best effort for metro" }]);
    expect(queries).toEqual(["metro"]);
    expect(requestsOf("rewriter")).toHaveLength(1);
  });

  it("checkpointing (MemorySaver) resumes a loop mid-way, in a graph compiled anew", async () => {
    const { queries, retrieve } = weakRetriever();
    const checkpointer = new MemorySaver();
    const thread = { configurable: { thread_id: "resume-1" } };
    const build = () =>
      buildQualityLoopGraph({ retrieve, generate: (s) => `answer to ${s.query}` }).compile({
        checkpointer,
        interruptBefore: ["rewrite_query"],
      });

    const first = build();
    await first.invoke({ question: "flood" }, thread);
    const paused = await first.getState(thread);
    expect(paused.next).toEqual(["rewrite_query"]);
    expect(paused.values).toMatchObject({ retry_count: 0, quality_grade: "low" });
    const startedAt = paused.values.started_at as number;

    // A new graph object (as after a restart) continues the same thread from its checkpoint.
    const second = build();
    await second.invoke(null, thread);
    await second.invoke(null, thread);
    const done = await second.invoke(null, thread);
    expect(done.retry_count).toBe(2);
    expect(done.started_at).toBe(startedAt);
    expect(done.grades).toHaveLength(3);
    // The first retrieval was not run again: one per grading.
    expect(queries).toHaveLength(3);
    expect(queries[0]).toBe("flood");
    expect(done.answer).toBe(`answer to ${done.query}`);
    expect((await second.getState(thread)).next).toEqual([]);
  });

  it("draws seed 001's graph: the same nodes and edges as ragjudge's own quality loop", () => {
    const drawn = edgesOf(
      buildQualityLoopGraph({ retrieve: () => [], generate: () => "" })
        .compile()
        .getGraph()
        .drawMermaid(),
    );
    const spec = qualityMachine(parseLoopsConfig({}).quality);
    expect(drawn).toEqual(specEdges(spec, { generate: END }));
  });
});

describe("parity with ragjudge's own quality loop", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore("pglite");
  });
  afterAll(async () => {
    await store?.close();
  });

  it("bench/rewrite-quality.ts's 20 vague queries get the same grades and rewrites through LangGraph", async () => {
    const user = await findOrCreateUser(store.db, "langgraph-parity");
    const corpus = fileURLToPath(new URL("../../examples/corpus", import.meta.url));
    const bot = createBuiltinBot({ db: store.db, workspaceId: user.id });
    const { collection_id } = await bot.ingestPaths([corpus], { name: "lanting" });
    const retriever = createRetriever({ db: store.db, workspaceId: user.id });
    const questionRouter = retriever.routerFor(collection_id);
    // A budget no run reaches on a loaded machine: parity is about decisions, not timing.
    const config = { quality: { budget_ms: 600_000 } };
    const graph = buildQualityLoopGraph({
      retrieve: retriever,
      questionRouter,
      generate: () => "",
      config,
    }).compile();

    const decisions = (state: {
      grades: { query: string; quality_grade: string; quality_score: number }[];
      rewrites: { from: string; query: string; by: string }[];
      retry_count: number;
    }) => ({
      grades: state.grades.map((g) => [g.query, g.quality_grade, g.quality_score]),
      rewrites: state.rewrites.map((r) => [r.from, r.query, r.by]),
      retry_count: state.retry_count,
    });
    let rewrites = 0;
    let lowFirst = 0;
    for (const question of VAGUE_QUERIES) {
      const own = await runQualityLoop(
        { question, collection_id },
        { retrieve: retriever, questionRouter, config: parseLoopsConfig(config) },
      );
      const viaLangGraph = await graph.invoke({ question, collection_id });
      expect(decisions(viaLangGraph), question).toEqual(decisions(own.state));
      rewrites += own.state.retry_count;
      if (own.state.grades[0]?.quality_grade === "low") lowFirst += 1;
    }
    // Not a vacuous match: the set has low first grades and rewrites to compare.
    expect(lowFirst).toBeGreaterThan(0);
    expect(rewrites).toBeGreaterThan(0);
  });
});

describe("buildAnswerLoopGraph (seed 000)", () => {
  const HITS = [
    {
      id: "bridge",
      content: "The Lanting bridge was built in 1870 by the river guild.",
      score: 0.9,
    },
    { id: "museum", content: "Tickets to the bridge museum cost 12 yuan for adults.", score: 0.8 },
  ];
  const SUGGESTION = "The date 1870 has no source citation; cite [1].";
  const FAIL = {
    reasonableness: { passed: true, problems: [] },
    evidence: { passed: false, problems: [SUGGESTION] },
  };
  const PASS = {
    reasonableness: { passed: true, problems: [] },
    evidence: { passed: true, problems: [] },
  };

  it("a failing review regenerates with the review's suggestions, then passes", async () => {
    let generation = 0;
    const answers = ["The bridge was built in 1870.", "The bridge was built in 1870 [1]."];
    llm.on({
      when: byModel("generator"),
      reply: () => ({ content: answers[generation++] ?? "" }),
    });
    let review = 0;
    llm.on({ when: byModel("judge"), reply: () => ({ chatty: review++ === 0 ? FAIL : PASS }) });
    const graph = buildAnswerLoopGraph({
      generate: chatModel("generator"),
      judge: chatModel("judge"),
    }).compile();

    const { nodes, state } = await streamRun(graph, {
      question: "When was the bridge built?",
      hits: HITS,
    });
    expect(nodes).toEqual(["generate_answer", "eval_answer", "generate_answer", "eval_answer"]);
    // The second generation was asked with the first answer and the review's suggestion.
    const second = requestsOf("generator")[1] as RecordedRequest;
    const revision = second.body.messages?.at(-1)?.content ?? "";
    expect(revision).toContain(SUGGESTION);
    expect(revision).toContain(answers[0]);
    expect(state).toMatchObject({
      epoch: 2,
      last_evaluation: { passed: true, suggestions: [] },
      final_answer: answers[1],
    });
    expect(requestsOf("judge")).toHaveLength(2);
  });

  it("stops at the epoch cap with the last answer, and the gate node judges it", async () => {
    llm.on({ when: byModel("generator"), reply: { content: "The bridge was built in 1870 [1]." } });
    llm.on({ when: byModel("judge"), reply: { chatty: FAIL } });
    const warnings: string[] = [];
    const graph = buildAnswerLoopGraph({
      generate: chatModel("generator"),
      judge: chatModel("judge"),
      gate: true,
      config: { answer: { gener_epoch: 2 } },
      logger: { warn: (message) => warnings.push(message) },
    }).compile();
    const state = await graph.invoke({ question: "When was the bridge built?", hits: HITS });
    expect(state.epoch).toBe(2);
    expect(requestsOf("generator")).toHaveLength(2);
    expect(state.last_evaluation).toEqual({ passed: false, suggestions: [SUGGESTION] });
    expect(state.gate).toMatchObject({ decision: "allow", status: "pass" });
    expect(state.final_answer).toBe("The bridge was built in 1870 [1].");
    expect(warnings).toEqual([
      "answer loop: GENER_EPOCH (2) reached without passing review; ending with the last answer",
    ]);
  });

  it("the answer budget ends the loop with the last answer when the review hangs", async () => {
    llm.on({ when: byModel("generator"), reply: { content: "The bridge was built in 1870 [1]." } });
    llm.on({ when: byModel("judge"), reply: { hang: true } });
    const warnings: string[] = [];
    const graph = buildAnswerLoopGraph({
      generate: chatModel("generator"),
      judge: chatModel("judge"),
      // Long enough for the first generation on a loaded 2-core machine.
      config: { answer: { budget_ms: 1_000 } },
      logger: { warn: (message) => warnings.push(message) },
    }).compile();
    const { nodes, state } = await streamRun(graph, {
      question: "When was the bridge built?",
      hits: HITS,
    });
    expect(nodes).toEqual(["generate_answer", "eval_answer"]);
    expect(state).toMatchObject({
      answer_timed_out: true,
      epoch: 1,
      final_answer: "The bridge was built in 1870 [1].",
    });
    expect(state.last_evaluation).toBeFalsy();
    expect(requestsOf("judge")).toHaveLength(1);
    expect(warnings).toEqual([
      "answer loop: budget of 1000 ms exhausted at epoch 1; ending with the last answer",
    ]);
  });

  it("refuses one model instance as both generator and judge (seed 000)", () => {
    const model = chatModel("same");
    expect(() => buildAnswerLoopGraph({ generate: model, judge: model })).toThrow(
      /judge: expected a model instance separate from the generator's/,
    );
  });

  it("draws seed 000's graph: the same nodes and edges as ragjudge's own answer loop", () => {
    const drawn = edgesOf(buildAnswerLoopGraph().compile().getGraph().drawMermaid());
    expect(drawn).toEqual(specEdges(answerMachine(parseLoopsConfig({}).answer), {}));
  });
});

/** The edges of a LangGraph Mermaid drawing, as "from -> to", sorted. */
function edgesOf(mermaid: string): string[] {
  const edges: string[] = [];
  for (const line of mermaid.split("\n")) {
    const match = /^\s*(\w+)\s+(?:-->|-\.->|-\.\s.*?\s\.->)\s+(\w+);/.exec(line);
    if (match) edges.push(`${match[1]} -> ${match[2]}`);
  }
  return edges.sort();
}

/** The edges of one of ragjudge's machine specs, as LangGraph names its terminals. */
function specEdges(
  spec: {
    start: string;
    edges: Record<string, string | { targets: Record<string, unknown> }>;
    exits: readonly string[];
  },
  exitsTo: Record<string, string>,
): string[] {
  const name = (n: string) => (n === END ? "__end__" : n);
  const edges = [`__start__ -> ${spec.start}`];
  for (const [from, edge] of Object.entries(spec.edges)) {
    const targets = typeof edge === "string" ? [edge] : Object.keys(edge.targets);
    for (const to of targets) edges.push(`${from} -> ${name(to)}`);
  }
  for (const [exit, to] of Object.entries(exitsTo)) edges.push(`${exit} -> ${name(to)}`);
  return edges.sort();
}

describe("examples/langgraph", () => {
  const REWRITTEN = "When was the Lanting bridge built?";
  const ANSWER = "The Lanting bridge was built in 1870 by the river guild [1].";
  const PASS = {
    reasonableness: { passed: true, problems: [] },
    evidence: { passed: true, problems: [] },
  };
  const run = (file: string) => {
    llm.on({
      when: (r) => isChat(r) && promptText(r).includes("query optimization expert"),
      reply: { content: REWRITTEN },
    });
    llm.on({
      when: (r) => isChat(r) && promptText(r).includes("strict reviewer"),
      reply: { json: PASS },
    });
    llm.on({ when: isChat, reply: { content: ANSWER } });
    return execFileAsync(process.execPath, [`examples/langgraph/${file}`], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: "k", MODEL: "m" },
    });
  };

  it("rag-graph.mjs runs against the scripted server: a weak query rewritten, reviewed, gated", async () => {
    const { stdout } = await run("rag-graph.mjs");
    expect(stdout).toBe(
      [
        "grade_documents: low (0.00)",
        `rewrite_query: ${REWRITTEN}`,
        "grade_documents: medium (0.63)",
        "eval_answer: passed=true",
        `gate_answer: allow: ${ANSWER}`,
        "",
      ].join("\n"),
    );
  });

  it("ready-made.mjs runs against the scripted server: the graph drawn, the loops composed, the history read", async () => {
    const { stdout } = await run("ready-made.mjs");
    expect(stdout).toContain("\tgrade_documents -.-> rewrite_query;\n");
    expect(stdout).toContain("\trewrite_query --> question_router;\n");
    expect(stdout.slice(stdout.indexOf("rewrites:"))).toBe(
      [
        "rewrites: 1, grade: medium",
        `answer: ${ANSWER}`,
        // getStateHistory lists the newest checkpoint first.
        `retrieved for: ${REWRITTEN}`,
        "retrieved for: when?",
        "",
      ].join("\n"),
    );
  });
});

it("docs/integrations.md's LangGraph snippet is copied line for line from the example the test runs", () => {
  const { lines, example } = snippetAndExample(
    "## LangGraph.js",
    "examples/langgraph/rag-graph.mjs",
  );
  expect(lines.length).toBeGreaterThan(20);
  for (const line of lines) expect(example, line).toContain(line);
});

it("ragjudge/langgraph loads the loops without the store, PGlite or the database bot", () => {
  const { stdout, loaded } = loadedModules(
    "ragjudge/langgraph",
    "console.log(typeof m.buildQualityLoopGraph);",
  );
  expect(stdout).toBe("function\n");
  expect(loaded.some((url) => url.includes("/dist/rag/loops/index.js"))).toBe(true);
  expect(loaded.some((url) => url.includes("/@langchain/langgraph/"))).toBe(true);
  const heavy = databaseModules(loaded);
  expect(heavy).toEqual([]);
});
