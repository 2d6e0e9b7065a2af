import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isChat, promptText, type RecordedRequest } from "../../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../../test/support/use-scripted-llm.js";
import type { LlmRole } from "../../llm/index.js";
import {
  type AnswerState,
  evalAnswer,
  initialAnswerState,
  type LoopLogger,
  runAnswerLoop,
} from "./answer-loop.js";
import { LoopsConfigError, parseLoopsConfig } from "./config.js";
import { makeHit } from "./fixed-retriever.js";
import type { ObservationDbRow } from "./observations.js";
import type { AnswerReviewer } from "./reviewers.js";

const server = useScriptedLlm();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ragjudge-answer-loop-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
let file: string;
let counter = 0;
beforeEach(() => {
  file = join(dir, `run-${++counter}`, "observational_data.jsonl");
});

function client(role: LlmRole) {
  return scriptedClient(server, role, {
    max_retries: 0,
    timeout_ms: 5_000,
    roles: { [role]: { model: `${role}-model` } },
  });
}

const isGenerator = (r: RecordedRequest) => isChat(r) && r.body.model === "generator-model";
const isJudge = (r: RecordedRequest) => isChat(r) && r.body.model === "judge-model";
const generatorRequests = () => server.requests.filter(isGenerator);
const judgeRequests = () => server.requests.filter(isJudge);

const PASS = {
  reasonableness: { passed: true, problems: [] },
  evidence: { passed: true, problems: [] },
};
const SUGGESTION = "Key conclusion '412 buildings' has no source citation; cite [n2].";
const FAIL = {
  reasonableness: { passed: true, problems: [] },
  evidence: { passed: false, problems: [SUGGESTION] },
};

const HITS = [
  makeHit({
    node_id: "n1",
    content: "The Great Fire of 1869 began in a bakery on Mill Street and burned for three days.",
    score: 0.9,
    sources: ["vector", "lexical"],
  }),
  makeHit({
    node_id: "n2",
    content: "The fire destroyed 412 buildings, including the old town hall.",
    score: 0.8,
    sources: ["lexical"],
  }),
  makeHit({
    node_id: "n3",
    content: "After the fire, the city council required new buildings to be made of brick.",
    score: 0.6,
    sources: ["vector"],
  }),
];
const QUESTION = "What did the Great Fire of 1869 destroy?";

function config(overrides: Record<string, unknown> = {}) {
  return parseLoopsConfig({ observations: { path: file }, ...overrides });
}

function spyLogger(): LoopLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => warnings.push(message) };
}

describe("answer loop (seed 000)", () => {
  it("starts from [system, user], generates from messages, passes, and appends observations", async () => {
    server.on({
      when: isGenerator,
      reply: { content: "The fire destroyed 412 buildings, including the old town hall [n2]." },
    });
    server.on({ when: isJudge, reply: { json: PASS } });
    const rows: ObservationDbRow[][] = [];
    const run = await runAnswerLoop(
      {
        question: QUESTION,
        collection_id: "c1",
        hits: HITS,
        retrieval_query: "great fire destroyed",
      },
      {
        generator: client("generator"),
        judge: client("judge"),
        appendObservations: async (batch) => {
          rows.push([...batch]);
        },
        config: config(),
        logger: spyLogger(),
      },
    );
    // The generator got run's two messages, untouched: the node built no prompt.
    const sent = generatorRequests()[0]?.body.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(["system", "user"]);
    expect(sent[0]?.content).toContain("[n2] document doc-n2\nThe fire destroyed 412 buildings");
    expect(sent[1]?.content).toBe(QUESTION);
    // The judge reviewed messages[-1] on its own client.
    expect(judgeRequests()).toHaveLength(1);
    expect(promptText(judgeRequests()[0] as RecordedRequest)).toContain(
      "412 buildings, including the old town hall [n2]",
    );

    const state = run.state;
    expect(run.exit_reason).toBe("passed");
    expect(state.epoch).toBe(1);
    expect(state.last_evaluation).toEqual({ passed: true, suggestions: [] });
    expect(state.final_answer).toBe(
      "The fire destroyed 412 buildings, including the old town hall [n2].",
    );
    expect(state.citations).toEqual(["n2"]);
    expect(state.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(run.trace.map((s) => s.node)).toEqual(["generate_answer", "eval_answer"]);
    expect(run.trace.at(-1)).toMatchObject({ next: "__end__", router: "eval_answer_route" });

    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string);
    expect(record).toMatchObject({
      collection_id: "c1",
      question: QUESTION,
      retrieval_query: "great fire destroyed",
      citations: ["n2"],
      epoch: 1,
      reviewer: "llm",
    });
    expect(
      record.nodes.map((n: { node_id: string; cited: boolean }) => [n.node_id, n.cited]),
    ).toEqual([
      ["n1", false],
      ["n2", true],
      ["n3", false],
    ]);
    expect(rows).toEqual([
      [
        {
          collection_id: "c1",
          query: QUESTION,
          answer: state.final_answer,
          node_id: "n2",
          score: 0.8,
        },
      ],
    ]);
    expect(run.observations).toMatchObject({ file: { ok: true }, database: { ok: true, rows: 1 } });
  });

  it("sends the suggestions back with the query, the content and last_answer, and keeps the valid parts", async () => {
    server.on({
      when: isGenerator,
      times: 1,
      reply: { content: "The fire destroyed 412 buildings." },
    });
    server.on({ when: isGenerator, reply: { content: "The fire destroyed 412 buildings [n2]." } });
    server.on({ when: isJudge, times: 1, reply: { json: FAIL } });
    server.on({ when: isJudge, reply: { json: PASS } });
    const run = await runAnswerLoop(
      { question: QUESTION, collection_id: "c1", hits: HITS },
      {
        generator: client("generator"),
        judge: client("judge"),
        config: config(),
        logger: spyLogger(),
      },
    );
    expect(generatorRequests()).toHaveLength(2);
    const second = generatorRequests()[1]?.body.messages ?? [];
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(second[2]?.content).toBe("The fire destroyed 412 buildings.");
    const revision = second[3]?.content ?? "";
    expect(revision).toContain(`## Original question\n${QUESTION}`);
    expect(revision).toContain("The fire destroyed 412 buildings, including the old town hall.");
    expect(revision).toContain("## Your previous answer\nThe fire destroyed 412 buildings.\n");
    expect(revision).toContain(`## Reviewer's suggestions\n- ${SUGGESTION}`);
    expect(revision).toContain("Keep the parts of the previous answer that are correct");

    expect(run.exit_reason).toBe("passed");
    expect(run.state.epoch).toBe(2);
    expect(run.state.generations.map((g) => [g.epoch, g.revision])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(run.state.evaluations.map((e) => [e.epoch, e.passed, e.suggestions])).toEqual([
      [1, false, [SUGGESTION]],
      [2, true, []],
    ]);
    expect(run.trace.map((s) => s.node)).toEqual([
      "generate_answer",
      "eval_answer",
      "generate_answer",
      "eval_answer",
    ]);
  });

  it("never generates more than GENER_EPOCH times; at the cap it ends with the last answer and warns", async () => {
    for (const gener_epoch of [1, 3]) {
      server.reset();
      let n = 0;
      server.on({ when: isGenerator, reply: () => ({ content: `Answer number ${++n}.` }) });
      server.on({ when: isJudge, reply: { json: FAIL } });
      const logger = spyLogger();
      const rows: unknown[] = [];
      const run = await runAnswerLoop(
        { question: QUESTION, collection_id: "c1", hits: HITS },
        {
          generator: client("generator"),
          judge: client("judge"),
          appendObservations: async (batch) => {
            rows.push(batch);
          },
          config: config({ answer: { gener_epoch } }),
          logger,
        },
      );
      expect(generatorRequests()).toHaveLength(gener_epoch);
      expect(judgeRequests()).toHaveLength(gener_epoch);
      expect(run.state.epoch).toBe(gener_epoch);
      expect(run.exit_reason).toBe("epoch_limit");
      expect(run.state.final_answer).toBe(`Answer number ${gener_epoch}.`);
      expect(logger.warnings).toEqual([
        `answer loop: GENER_EPOCH (${gener_epoch}) reached without passing review; ending with the last answer`,
      ]);
      // Only a pass writes observational data.
      expect(run.observations).toBeNull();
      expect(rows).toEqual([]);
      expect(existsSync(file)).toBe(false);
      // No revision request is left waiting after the last answer.
      expect(run.state.messages.at(-1)?.role).toBe("assistant");
    }
  });

  it("eval_answer reviews messages[-1] and leaves last_answer unchanged", async () => {
    const reviewed: string[] = [];
    const reviewer: AnswerReviewer = {
      by: "offline",
      model: "stub",
      review: async (request) => {
        reviewed.push(request.answer);
        return {
          passed: false,
          suggestions: ["Cite [n2]."],
          by: "offline",
          model: "stub",
          outcome: "ok",
          calls: [],
        };
      },
    };
    const loopConfig = config();
    const state: AnswerState = {
      ...initialAnswerState({ question: QUESTION, collection_id: "c1", hits: HITS }, loopConfig),
      epoch: 1,
      last_answer: "previous answer",
    };
    state.messages = [...state.messages, { role: "assistant", content: "latest answer" }];
    const ctx = {
      generator: undefined as never,
      reviewer,
      config: loopConfig.answer,
      signal: new AbortController().signal,
    };
    const update = await evalAnswer(state, ctx);
    expect(reviewed).toEqual(["latest answer"]);
    expect(update).not.toHaveProperty("last_answer");
    expect(update.last_evaluation).toEqual({ passed: false, suggestions: ["Cite [n2]."] });
    expect(update.messages?.at(-1)?.content).toContain("## Your previous answer\nlatest answer");

    state.messages = state.messages.slice(0, 2);
    await expect(evalAnswer(state, ctx)).rejects.toThrow(
      "messages[-1] is a user message; expected the generated answer",
    );
  });

  it("asks again without suggestions when the judge's reply is unusable (judge_error)", async () => {
    server.on({ when: isGenerator, reply: { content: "The fire destroyed 412 buildings [n2]." } });
    server.on({ when: isJudge, times: 2, reply: { content: "not json at all" } });
    server.on({ when: isJudge, reply: { json: PASS } });
    const run = await runAnswerLoop(
      { question: QUESTION, collection_id: "c1", hits: HITS },
      {
        generator: client("generator"),
        judge: client("judge"),
        config: config(),
        logger: spyLogger(),
      },
    );
    expect(run.state.evaluations[0]).toMatchObject({
      outcome: "judge_error",
      passed: false,
      suggestions: [],
    });
    const revision = generatorRequests()[1]?.body.messages?.at(-1)?.content ?? "";
    expect(revision).toContain("(The reviewer gave no specific suggestions");
    expect(run.exit_reason).toBe("passed");
  });

  it("refuses a judge that shares the generator's client instance", async () => {
    const shared = client("generator");
    await expect(
      runAnswerLoop(
        { question: QUESTION, collection_id: "c1", hits: HITS },
        { generator: shared, judge: shared },
      ),
    ).rejects.toBeInstanceOf(LoopsConfigError);
  });

  it("answers extractively and reviews with the evidence gate when no LLM is configured", async () => {
    const run = await runAnswerLoop(
      { question: QUESTION, collection_id: "c1", hits: HITS },
      { config: config(), logger: spyLogger() },
    );
    expect(server.requests).toHaveLength(0);
    expect(run.exit_reason).toBe("passed");
    expect(run.state.generations[0]).toMatchObject({ by: "extractive", model: "extractive" });
    expect(run.state.evaluations[0]).toMatchObject({
      by: "offline",
      model: "evidence-gate",
      gate_status: "pass",
      fallback_reason: "no judge model configured: deterministic review by the evidence gate",
    });
    const ids = new Set(HITS.map((h) => h.node_id));
    expect(run.state.citations.length).toBeGreaterThan(0);
    for (const id of run.state.citations) expect(ids.has(id)).toBe(true);
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("ends with the last answer when the answer budget runs out, aborting the call", async () => {
    server.on({ when: isGenerator, reply: { hang: true } });
    const generator = client("generator");
    const logger = spyLogger();
    // The generator never answers: only the budget's abort can end the loop.
    const run = await runAnswerLoop(
      { question: QUESTION, collection_id: "c1", hits: HITS },
      { generator, judge: client("judge"), config: config({ answer: { budget_ms: 200 } }), logger },
    );
    expect(run.exit_reason).toBe("timeout");
    expect(run.state.final_answer).toBe("");
    expect(generator.usage()).toMatchObject({ calls: 1, failed_calls: 1 });
    expect(logger.warnings[0]).toMatch(/^answer loop: budget of 200 ms exhausted at epoch 0/);
    expect(existsSync(file)).toBe(false);
  });
});
