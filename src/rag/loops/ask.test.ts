import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isChat, type RecordedRequest } from "../../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../../test/support/use-scripted-llm.js";
import { type LlmRole, ProviderLimiters } from "../../llm/index.js";
import { wordMessage } from "../../text/index.js";
import type { RetrievalSource, RetrievedHit, RetrieveRequest } from "../types.js";
import { AskInputError, ask } from "./ask.js";
import { parseLoopsConfig } from "./config.js";
import { fixedRetriever, makeHit } from "./fixed-retriever.js";
import type { ObservationDbRow } from "./observations.js";

const server = useScriptedLlm();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ragjudge-ask-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function clients() {
  const limiters = new ProviderLimiters();
  const make = (role: LlmRole) =>
    scriptedClient(
      server,
      role,
      { max_retries: 0, roles: { [role]: { model: `${role}-model` } } },
      { limiters },
    );
  return { generator: make("generator"), judge: make("judge"), rewriter: make("rewriter") };
}
const byModel = (model: string) => (r: RecordedRequest) => isChat(r) && r.body.model === model;

const SOURCES: RetrievalSource[][] = [["vector", "lexical"], ["vector"], ["memory", "vector"]];
const GOOD: RetrievedHit[] = [
  "The Great Fire of 1869 destroyed 412 buildings, including the old town hall.",
  "The Great Fire of 1869 began in a bakery on Mill Street and burned for three days.",
  "After the Great Fire, the council required new buildings to be made of brick.",
  ...Array.from({ length: 9 }, (_, i) => `Harbour ledger entry ${i + 1} lists cargo and ships.`),
].map((content, i) =>
  makeHit({
    node_id: `n${i + 1}`,
    content,
    score: 0.8,
    sources: SOURCES[i % 3] as RetrievalSource[],
  }),
);
const POOR = [
  makeHit({ node_id: "p1", content: "Tulips bloom in April.", score: 0.1, sources: ["lexical"] }),
];
const QUESTION = "What did the Great Fire of 1869 destroy?";

function config(name: string) {
  return parseLoopsConfig({ observations: { path: join(dir, `${name}.jsonl`) } });
}
const quiet = { warn: () => {} };

describe("ask", () => {
  it("works offline end to end: extractive answer, evidence-gate review, gate verdict, trace", async () => {
    const rows: ObservationDbRow[][] = [];
    const result = await ask(
      { question: QUESTION, collection_id: "c1", conversation_id: "conv-1", message_id: "msg-1" },
      {
        retrieve: fixedRetriever(GOOD),
        appendObservations: async (batch) => {
          rows.push([...batch]);
        },
        config: config("offline"),
        logger: quiet,
      },
    );
    expect(server.requests).toHaveLength(0);
    expect(result).toMatchObject({
      question: QUESTION,
      collection_id: "c1",
      conversation_id: "conv-1",
      message_id: "msg-1",
      quality_exit: "quality",
      answer_exit: "passed",
      action: "show",
      response: { action: "show", notice: null },
    });
    expect(result.hits).toHaveLength(12);
    expect(result.hits[0]?.sources).toEqual(["vector", "lexical"]);
    expect(result.quality.quality_grade).toBe("high");
    expect(result.final_answer).toContain(
      "destroyed 412 buildings, including the old town hall [n1].",
    );
    expect(result.response.answer).toBe(result.final_answer);
    expect(result.citations[0]).toBe("n1");
    expect(result.gate.status).toBe("pass");
    expect(result.trace.map((s) => `${s.machine}:${s.node}`)).toEqual([
      "quality:question_router",
      "quality:retrieve",
      "quality:grade_documents",
      "answer:generate_answer",
      "answer:eval_answer",
      "ask:evidence_gate",
    ]);
    for (let i = 1; i < result.trace.length; i++) {
      expect(result.trace[i]?.started_ms).toBeGreaterThanOrEqual(
        result.trace[i - 1]?.started_ms ?? 0,
      );
    }
    // Each step in plain words, as a code a person reads in English or Chinese.
    expect(result.trace.map((s) => s.summary_message?.code)).toEqual([
      "trace.sources",
      "trace.retrieved",
      "trace.graded_high",
      "trace.first_answer",
      "trace.check_passed",
      "trace.gate_show",
    ]);
    const answered = result.trace[3]!.summary_message!;
    expect(answered.message).toBe(
      `Wrote an answer of ${result.final_answer.length} characters with ${result.citations.length} citations.`,
    );
    expect(wordMessage(answered, "zh")).toBe(
      `写出了一个 ${result.final_answer.length} 个字符的回答，含 ${result.citations.length} 处引用。`,
    );
    expect(wordMessage(result.trace[5]!.summary_message!, "zh")).toBe("门控显示该回答。");
    expect(rows[0]?.map((r) => r.node_id)).toEqual(result.citations);
    const line = JSON.parse(readFileSync(join(dir, "offline.jsonl"), "utf8").trim());
    expect(line).toMatchObject({
      question: QUESTION,
      citations: result.citations,
      reviewer: "offline",
    });
  });

  it("uses one client per role against the scripted LLM: rewrite, generate, review", async () => {
    const llm = clients();
    server.on({
      when: byModel("rewriter-model"),
      reply: { content: "Great Fire 1869 destroyed buildings" },
    });
    server.on({
      when: byModel("generator-model"),
      reply: {
        content:
          "The Great Fire of 1869 destroyed 412 buildings, including the old town hall [n1].",
      },
    });
    server.on({
      when: byModel("judge-model"),
      reply: {
        json: {
          reasonableness: { passed: true, problems: [] },
          evidence: { passed: true, problems: [] },
        },
      },
    });
    const retrieve = fixedRetriever((request: RetrieveRequest) =>
      request.query.includes("1869") ? GOOD : POOR,
    );
    const result = await ask(
      { question: "great fire", collection_id: "c1" },
      { retrieve, llm, config: config("llm"), logger: quiet },
    );
    expect(server.requests.filter(byModel("rewriter-model"))).toHaveLength(1);
    expect(server.requests.filter(byModel("generator-model"))).toHaveLength(1);
    expect(server.requests.filter(byModel("judge-model"))).toHaveLength(1);
    expect(result.quality.original_queries).toEqual(["great fire"]);
    expect(result.quality.query).toBe("Great Fire 1869 destroyed buildings");
    expect(result.quality.grades.map((g) => g.quality_grade)).toEqual(["low", "high"]);
    expect(result.quality.rewrites[0]).toMatchObject({
      by: "llm",
      from: "great fire",
      retry_count: 1,
    });
    expect(result.answer.epoch).toBe(1);
    expect(result.answer.evaluations[0]).toMatchObject({
      by: "llm",
      model: "judge-model",
      passed: true,
    });
    expect(result.citations).toEqual(["n1"]);
    expect(result.action).toBe("show");
    expect(result.conversation_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses an answer the judge passed but the evidence gate fails", async () => {
    const llm = clients();
    server.on({
      when: byModel("generator-model"),
      reply: { content: "The fire destroyed 9,000 buildings and a cathedral [n99]." },
    });
    server.on({
      when: byModel("judge-model"),
      reply: {
        json: {
          reasonableness: { passed: true, problems: [] },
          evidence: { passed: true, problems: [] },
        },
      },
    });
    const result = await ask(
      { question: QUESTION, collection_id: "c1" },
      { retrieve: fixedRetriever(GOOD), llm, config: config("refuse"), logger: quiet },
    );
    expect(result.answer_exit).toBe("passed");
    expect(result.gate.status).toBe("fail");
    expect(result.action).toBe("refuse");
    expect(result.response.answer).toBeNull();
    expect(result.response.notice).toMatch(/^No answer is shown: .*citation_markers/);
  });

  it("validates its input, naming the field", async () => {
    await expect(
      ask({ question: "  ", collection_id: "c1" }, { retrieve: fixedRetriever([]) }),
    ).rejects.toThrow("ask: question: expected a non-empty question");
    await expect(
      ask({ question: "q", collection_id: "c1", sources: [] }, { retrieve: fixedRetriever([]) }),
    ).rejects.toBeInstanceOf(AskInputError);
  });

  it("still answers (honestly) when retrieval finds nothing", async () => {
    const result = await ask(
      { question: QUESTION, collection_id: "c1" },
      { retrieve: fixedRetriever([]), config: config("empty"), logger: quiet },
    );
    expect(result.quality.quality_issues.map((i) => i.en)).toEqual(["No documents retrieved"]);
    expect(result.quality.retry_count).toBe(2);
    expect(result.final_answer).toBe(
      "I could not find information about this in the retrieved documents.",
    );
    expect(result.gate.status).toBe("pass");
  });
});
