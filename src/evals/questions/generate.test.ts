import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { promptText, type RecordedRequest } from "../../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../../test/support/use-scripted-llm.js";
import { LlmAbortError, type LlmClient } from "../../llm/index.js";
import type { DocumentChunks } from "./chunks.js";
import { QuestionGenerationError } from "./errors.js";
import { generateQuestions, HEURISTIC_WARNING } from "./generate.js";

const server = useScriptedLlm();
let client: LlmClient;

function clientFor(structured_output: "json_object" | "json_schema" | "prompt"): LlmClient {
  return scriptedClient(server, "generator", { structured_output, max_retries: 0 });
}

beforeAll(() => {
  client = clientFor("json_object");
});

/** The chunk text between the template's ``` fences. */
function chunkIn(request: RecordedRequest): string {
  return /```\n([\s\S]*?)\n```/.exec(promptText(request))?.[1] ?? "";
}

/** How many questions the prompt asked for. */
function askedIn(request: RecordedRequest): number {
  return Number(
    /generate (\d+) questions|生成 (\d+) 个问题/.exec(promptText(request))?.slice(1).find(Boolean),
  );
}

/** A model that asks as many distinct questions as it is told, about the chunk it was given. */
function echoingModel(request: RecordedRequest) {
  const chunk = chunkIn(request);
  const questions = Array.from({ length: askedIn(request) }, (_, i) => ({
    question_type: i % 2 === 0 ? "FACTUAL" : "INFERENTIAL",
    question_text: `Question ${i + 1} about ${chunk}?`,
    ground_truth: `Answer ${i + 1} from ${chunk}.`,
  }));
  return { json: { questions } };
}

const documents: DocumentChunks[] = [
  {
    document_id: "doc-a",
    chunks: ["a1", "a2", "a3"].map((id) => ({ id, content: `text of ${id}` })),
  },
  { document_id: "doc-b", chunks: [{ id: "b1", content: "text of b1" }] },
];

describe("generateQuestions with an LLM", () => {
  it("asks chunk by chunk in round-robin order; each question keeps its chunk", async () => {
    server.on({ reply: echoingModel });
    const progress: [number, number][] = [];
    const result = await generateQuestions({
      documents,
      n: 5,
      client,
      questionsPerChunk: 2,
      concurrency: 1,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(server.requests.map(chunkIn)).toEqual(["text of a1", "text of b1", "text of a2"]);
    expect(server.requests.map(askedIn)).toEqual([2, 2, 1]);
    expect(result.heuristic).toBe(false);
    expect(result.warnings).toEqual([]);
    expect(result.calls).toHaveLength(3);
    expect(result.calls.every((c) => c.outcome === "ok")).toBe(true);
    expect(progress).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
    expect(result.questions.map((q) => [q.document_id, q.source_chunk_id])).toEqual([
      ["doc-a", "a1"],
      ["doc-a", "a1"],
      ["doc-b", "b1"],
      ["doc-b", "b1"],
      ["doc-a", "a2"],
    ]);
    expect(result.questions[2]).toEqual({
      question_type: "FACTUAL",
      question_text: "Question 1 about text of b1?",
      ground_truth: "Answer 1 from text of b1.",
      reference_context: "text of b1",
      source_chunk_id: "b1",
      document_id: "doc-b",
    });
  });

  it("sends seed 003's Chinese prompt for a Chinese chunk and the English one otherwise", async () => {
    server.on({ reply: { json: { questions: [] } } });
    const mixed: DocumentChunks[] = [
      {
        document_id: "zh",
        chunks: [{ id: "z1", content: "新防洪堤于2020年建成，全长11.8公里。" }],
      },
      { document_id: "en", chunks: [{ id: "e1", content: "The Tidewall is 7.4 km long." }] },
    ];
    await generateQuestions({
      documents: mixed,
      n: 2,
      client,
      questionsPerChunk: 1,
      concurrency: 1,
    });
    const [zh, en] = server.requests.map(promptText);
    expect(zh).toContain("你是一个善于提出问题的专家");
    expect(zh).toContain("生成 1 个问题");
    expect(en).toContain("You are an expert at asking questions");
    server.reset();
    server.on({ reply: { json: { questions: [] } } });
    await generateQuestions({ documents: mixed, n: 1, client, language: "zh", concurrency: 1 });
    expect(
      server.requests.map(promptText).every((p) => p.includes("你是一个善于提出问题的专家")),
    ).toBe(true);
  });

  it("accepts the seed's bare list from a chatty model, and {questions} from a JSON server", async () => {
    const item = { question_type: "factual", question_text: "How long?", ground_truth: "7.4 km." };
    server.on({ reply: { chatty: [item] }, times: 1 });
    server.on({
      reply: { json: { questions: [{ ...item, question_text: "How high?" }] } },
    });
    const result = await generateQuestions({
      documents,
      n: 2,
      client: clientFor("prompt"),
      questionsPerChunk: 1,
      concurrency: 1,
    });
    expect(result.questions.map((q) => [q.question_type, q.question_text])).toEqual([
      ["FACTUAL", "How long?"],
      ["FACTUAL", "How high?"],
    ]);
  });

  it("turns one chunk's unusable reply into a warning and goes on to the next chunk", async () => {
    server.on({ when: (r) => chunkIn(r) === "text of a1", reply: { content: "Sorry, no." } });
    server.on({ reply: echoingModel });
    const result = await generateQuestions({ documents, n: 2, client, concurrency: 1 });
    // a1: the reply and the re-ask; b1: one call.
    expect(result.calls).toHaveLength(3);
    expect(result.questions.map((q) => q.source_chunk_id)).toEqual(["b1", "b1"]);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({
      code: "generation.unusable_reply",
      params: { chunk: "a1", document: "doc-a" },
    });
    expect(result.warnings[0]?.message).toMatch(
      /^The model's reply for passage a1 of document doc-a was unusable, so it gave no questions: the reply contains no JSON/,
    );
  });

  it("keeps a reply's good items and warns about the bad ones", async () => {
    server.on({
      reply: {
        json: [
          { question_type: "FACTUAL", question_text: "Good?", ground_truth: "Yes." },
          { question_type: "FACTUAL", question_text: "No answer?" },
          { question_type: "OPINION", question_text: "Odd?", ground_truth: "x" },
          { question_type: "INFERENTIAL", question_text: "Also good?", ground_truth: "Yes." },
        ],
      },
    });
    const result = await generateQuestions({ documents: documents.slice(1), n: 4, client });
    expect(result.questions.map((q) => q.question_text)).toEqual(["Good?", "Also good?"]);
    expect(result.warnings[0]).toMatchObject({
      code: "generation.unusable_items",
      params: { chunk: "b1", document: "doc-b", n: 2 },
    });
    expect(result.warnings[0]?.params.problems).toMatch(
      /^item 2: ground_truth: .*; item 3: question_type: /,
    );
    expect(result.warnings.at(-1)?.message).toBe(
      "Only 2 of 4 questions: all 1 passages were used.",
    );
  });

  it("drops repeats of earlier or existing questions, and asks further chunks for more", async () => {
    const same = {
      question_type: "FACTUAL",
      question_text: "What is Lanting?",
      ground_truth: "A city.",
    };
    server.on({ when: (r) => chunkIn(r) === "text of a1", reply: { json: [same] } });
    server.on({
      when: (r) => chunkIn(r) === "text of b1",
      reply: { json: [{ ...same, question_text: "what is LANTING" }] },
    });
    server.on({ reply: echoingModel });
    const result = await generateQuestions({
      documents,
      n: 2,
      client,
      questionsPerChunk: 1,
      concurrency: 1,
      existing: ["Question 1 about text of a2?"],
    });
    expect(result.questions.map((q) => [q.source_chunk_id, q.question_text])).toEqual([
      ["a1", "What is Lanting?"],
      ["a3", "Question 1 about text of a3?"],
    ]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      "2 generated questions repeated an earlier one and were dropped.",
    ]);
  });

  it("asks only for the requested types and drops others", async () => {
    server.on({ reply: echoingModel });
    const result = await generateQuestions({
      documents: documents.slice(1),
      n: 3,
      client,
      types: ["INFERENTIAL"],
    });
    expect(promptText(server.requests[0] as RecordedRequest)).toContain(
      "Generate only questions of type INFERENTIAL.",
    );
    expect(result.questions.map((q) => q.question_type)).toEqual(["INFERENTIAL"]);
    expect(result.warnings).toContainEqual(
      expect.objectContaining({
        code: "generation.unrequested_types",
        params: { chunk: "b1", document: "doc-b", n: 2 },
      }),
    );
  });

  it("uses a user-edited template, filling {document_content} and {N}", async () => {
    server.on({ reply: echoingModel });
    await generateQuestions({
      documents: documents.slice(1),
      n: 2,
      client,
      prompt: "Please generate {N} questions in JSON.\n```\n{document_content}\n```",
    });
    expect(promptText(server.requests[0] as RecordedRequest)).toContain(
      "Please generate 2 questions in JSON.\n```\ntext of b1\n```",
    );
  });

  it("asks for an object with a questions list from a json_schema server", async () => {
    server.on({ reply: echoingModel });
    await generateQuestions({
      documents: documents.slice(1),
      n: 1,
      client: clientFor("json_schema"),
    });
    const format = server.requests[0]?.body.response_format;
    expect(format?.type).toBe("json_schema");
    expect(format?.json_schema?.schema).toMatchObject({
      type: "object",
      required: ["questions"],
      properties: { questions: { type: "array" } },
    });
  });

  it("asks up to `concurrency` chunks at once and still merges in chunk order", async () => {
    server.on({
      reply: (r) => ({ ...echoingModel(r), latencyMs: chunkIn(r) === "text of a1" ? 60 : 0 }),
    });
    const result = await generateQuestions({ documents, n: 4, client, questionsPerChunk: 1 });
    expect(server.maxInFlight).toBeGreaterThan(1);
    expect(result.questions.map((q) => q.source_chunk_id)).toEqual(["a1", "b1", "a2", "a3"]);
  });

  it("is cancelled by its AbortSignal", async () => {
    server.on({ reply: { hang: true } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const run = generateQuestions({ documents, n: 2, client, signal: controller.signal });
    await expect(run).rejects.toSatisfy((e) => LlmAbortError.isInstance(e));
    const aborted = AbortSignal.abort();
    await expect(generateQuestions({ documents, n: 1, client, signal: aborted })).rejects.toSatisfy(
      (e) => LlmAbortError.isInstance(e),
    );
  });
});

describe("generateQuestions: options", () => {
  it("rejects bad options before any call, naming the option", async () => {
    const cases: [Parameters<typeof generateQuestions>[0], RegExp][] = [
      [{ documents, n: 0, client }, /^n: /],
      [{ documents, n: 1.5, client }, /^n: /],
      [{ documents, n: 1, types: [], client }, /^types: at least one type/],
      [{ documents, n: 1, prompt: "no placeholder", client }, /^prompt: the template must contain/],
      [{ documents: [{ document_id: "d", chunks: [] }], n: 1, client }, /^documents: no chunk/],
    ];
    for (const [options, message] of cases) {
      const run = generateQuestions(options);
      await expect(run).rejects.toThrow(message);
      await expect(run).rejects.toSatisfy((e) => QuestionGenerationError.isInstance(e));
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe("generateQuestions without an LLM (heuristic)", () => {
  const corpus = new URL("../../../examples/corpus/", import.meta.url);
  const corpusDocuments: DocumentChunks[] = [
    "lanting-history",
    "lanting-flood-2016",
    "lanting-transport",
  ].map((name) => ({
    document_id: name,
    chunks: readFileSync(new URL(`${name}.md`, corpus), "utf8")
      .split(/\n\s*\n/)
      .filter((p) => !p.startsWith("#"))
      .map((content, i) => ({ id: `${name}#${i + 1}`, content })),
  }));

  it("labels its result, spreads over documents, and keeps each question's chunk", async () => {
    const result = await generateQuestions({ documents: corpusDocuments, n: 8 });
    expect(result.heuristic).toBe(true);
    expect(result.calls).toEqual([]);
    expect(result.warnings).toEqual([HEURISTIC_WARNING]);
    expect(result.questions).toHaveLength(8);
    expect(result.questions.map((q) => q.source_chunk_id)).toEqual([
      "lanting-history#1",
      "lanting-history#1",
      "lanting-history#1",
      "lanting-flood-2016#1",
      "lanting-flood-2016#1",
      "lanting-flood-2016#1",
      "lanting-transport#1",
      "lanting-transport#1",
    ]);
    for (const q of result.questions) {
      const chunk = corpusDocuments
        .flatMap((d) => d.chunks)
        .find((c) => c.id === q.source_chunk_id)?.content;
      expect(q.reference_context).toBe(chunk);
      expect(q.ground_truth.length).toBeGreaterThan(0);
    }
    expect(result.questions[3]?.question_text).toMatch(/？$/);
  });

  it("gives the same questions for the same inputs", async () => {
    const first = await generateQuestions({ documents: corpusDocuments, n: 20 });
    const second = await generateQuestions({ documents: corpusDocuments, n: 20 });
    expect(second).toEqual(first);
    expect(new Set(first.questions.map((q) => q.question_text)).size).toBe(20);
  });

  it("honours types and says so when the chunks run out", async () => {
    const result = await generateQuestions({
      documents: corpusDocuments.slice(0, 1),
      n: 200,
      types: ["FACTUAL"],
    });
    expect(result.questions.every((q) => q.question_type === "FACTUAL")).toBe(true);
    expect(result.questions.length).toBeGreaterThan(3);
    expect(result.warnings.at(-1)?.message).toMatch(
      /^Only \d+ of 200 questions: all 4 passages were used\.$/,
    );
  });
});
