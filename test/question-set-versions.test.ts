import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type EvaluationWorker, startEvaluationWorker } from "../src/evals/runs/index.js";
import { parseQuestionFile } from "../src/evals/questions/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { createApp } from "../src/server/index.js";
import { createApiToken, findOrCreateUser } from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

// Issue 28 §3: versioned question sets over the HTTP API, on both stores.

const QUESTIONS = [
  { question_type: "FACTUAL", question_text: "When did Line 1 open?", ground_truth: "2009" },
  {
    question_type: "FACTUAL",
    question_text: "What does a metro ride cost?",
    ground_truth: "2 yuan",
  },
  {
    question_type: "FACTUAL",
    question_text: "When was the university founded?",
    ground_truth: "1952",
  },
];

interface Version {
  id: string;
  number: number;
  change: string;
  created_by: string | null;
  created_by_name: string | null;
  created_at: string;
  restored_from: number | null;
  question_count: number;
}
interface VersionQuestion {
  id: string;
  question_text: string;
  ground_truth: string;
}
interface SetBody {
  id: string;
  question_count: number;
  questions: Array<{ id: string; question_text: string; ground_truth: string }>;
}
interface Diff {
  from: Version;
  to: Version;
  added: VersionQuestion[];
  removed: VersionQuestion[];
  changed: Array<{ before: VersionQuestion; after: VersionQuestion; fields: string[] }>;
  unchanged: number;
}

describeEachStore("question set versions", (use) => {
  let app: ReturnType<typeof createApp>;
  let jobs: Jobs;
  let worker: EvaluationWorker;

  beforeAll(async () => {
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
    worker = startEvaluationWorker({ jobs, clientsFor: () => ({}), watchMs: 50 });
    app = createApp({ db: use().db, jobs });
  });
  afterAll(async () => {
    await worker.stop();
    await jobs.stop();
  });

  async function userOf(name: string) {
    const user = await findOrCreateUser(use().db, name);
    return { id: user.id, token: await createApiToken(use().db, user.id) };
  }
  const call = (token: string, method: string, path: string, body?: unknown) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  async function ok<T>(response: Response | Promise<Response>, status = 200): Promise<T> {
    const r = await response;
    const text = await r.text();
    expect(r.status, text).toBe(status);
    return JSON.parse(text) as T;
  }
  const versionsOf = async (token: string, setId: string) =>
    (await ok<{ items: Version[] }>(call(token, "GET", `/question-sets/${setId}/versions`))).items;

  it("makes a version of every change, with who and when, and diffs two of them", async () => {
    const alice = await userOf("alice");
    // "When" is checked by order, not by how long ago: made during this test, however slow.
    const startedAt = Date.now();
    const set = await ok<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "metro", questions: QUESTIONS }),
      201,
    );
    const [line1, fare, founded] = set.questions;
    if (!line1 || !fare || !founded) throw new Error("three questions");
    await ok(
      call(alice.token, "POST", `/question-sets/${set.id}/questions`, {
        questions: [{ question_text: "Which festival is in spring?", ground_truth: "Lantern" }],
      }),
      201,
    );
    await ok(
      call(alice.token, "PUT", `/question-sets/questions/${fare.id}`, { ground_truth: "3 yuan" }),
    );
    // An edit that changes nothing makes no version.
    await ok(
      call(alice.token, "PUT", `/question-sets/questions/${fare.id}`, { ground_truth: "3 yuan" }),
    );
    await ok(
      call(alice.token, "PUT", `/question-sets/questions/${line1.id}`, {
        question_text: "In which year did Line 1 open?",
      }),
    );
    expect(
      (await call(alice.token, "DELETE", `/question-sets/questions/${founded.id}`)).status,
    ).toBe(204);
    const afterSave = await ok<SetBody>(
      call(alice.token, "POST", `/question-sets/${set.id}/changes`, {
        added: [{ question_text: "How long is Line 2?", ground_truth: "30 km" }],
        updated: [],
        removed: [],
      }),
    );
    expect(afterSave.question_count).toBe(4);

    const versions = await versionsOf(alice.token, set.id);
    const readAt = Date.now();
    expect(versions.map((v) => [v.number, v.change, v.question_count])).toEqual([
      [6, "edited", 4],
      [5, "deleted", 3],
      [4, "edited", 4],
      [3, "edited", 4],
      [2, "appended", 4],
      [1, "created", 3],
    ]);
    for (const v of versions) {
      expect(v.created_by).toBe(alice.id);
      expect(v.created_by_name).toBe("alice");
      expect(Date.parse(v.created_at)).toBeGreaterThanOrEqual(startedAt);
      expect(Date.parse(v.created_at)).toBeLessThanOrEqual(readAt);
    }

    const diff = await ok<Diff>(
      call(alice.token, "GET", `/question-sets/${set.id}/diff?from=1&to=6`),
    );
    expect([diff.from.number, diff.to.number]).toEqual([1, 6]);
    expect(diff.added.map((q) => q.question_text)).toEqual([
      "Which festival is in spring?",
      "How long is Line 2?",
    ]);
    expect(diff.removed.map((q) => q.question_text)).toEqual(["When was the university founded?"]);
    expect(
      diff.changed.map((c) => [c.before.question_text, c.after.question_text, c.fields]),
    ).toEqual([
      ["When did Line 1 open?", "In which year did Line 1 open?", ["question_text"]],
      ["What does a metro ride cost?", "What does a metro ride cost?", ["ground_truths"]],
    ]);
    expect(diff.changed[1]?.before.ground_truth).toBe("2 yuan");
    expect(diff.changed[1]?.after.ground_truth).toBe("3 yuan");
    expect(diff.unchanged).toBe(0);

    // One version alone, with its questions as they were.
    const v1 = await ok<{ questions: VersionQuestion[] }>(
      call(alice.token, "GET", `/question-sets/${set.id}/versions/1`),
    );
    expect(v1.questions.map((q) => q.question_text)).toEqual(QUESTIONS.map((q) => q.question_text));
    expect((await call(alice.token, "GET", `/question-sets/${set.id}/versions/9`)).status).toBe(
      404,
    );
  });

  it("restores an old version as a new one, the same questions under the same ids", async () => {
    const alice = await userOf("alice");
    const set = await ok<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "metro", questions: QUESTIONS }),
      201,
    );
    const [line1, fare] = set.questions;
    if (!line1 || !fare) throw new Error("questions");
    await ok(
      call(alice.token, "POST", `/question-sets/${set.id}/changes`, {
        removed: [line1.id],
        updated: [
          { id: fare.id, question_text: "What does one ride cost?", ground_truth: "3 yuan" },
        ],
        // The removed question's text again, as a new question: it must give way on restore.
        added: [{ question_text: "When did Line 1 open?", ground_truth: "2010" }],
      }),
    );
    const restored = await ok<Version>(
      call(alice.token, "POST", `/question-sets/${set.id}/versions/1/restore`),
      201,
    );
    expect([restored.number, restored.change, restored.restored_from]).toEqual([3, "restored", 1]);
    const now = await ok<SetBody>(call(alice.token, "GET", `/question-sets/${set.id}`));
    expect(now.questions.map((q) => [q.id, q.question_text, q.ground_truth])).toEqual(
      set.questions.map((q) => [q.id, q.question_text, q.ground_truth]),
    );
    expect(now.question_count).toBe(3);
    const diff = await ok<Diff>(
      call(alice.token, "GET", `/question-sets/${set.id}/diff?from=1&to=3`),
    );
    expect([diff.added, diff.removed, diff.changed, diff.unchanged]).toEqual([[], [], [], 3]);
    // Restoring what the set already is changes nothing.
    const again = await ok<Version>(
      call(alice.token, "POST", `/question-sets/${set.id}/versions/3/restore`),
      201,
    );
    expect(again.number).toBe(3);
    // The set can be edited on from the restored version.
    await ok(
      call(alice.token, "PUT", `/question-sets/questions/${fare.id}`, { ground_truth: "4 yuan" }),
    );
    expect((await versionsOf(alice.token, set.id))[0]?.number).toBe(4);
  });

  it("writes one save all or nothing: a repeated text or a foreign question changes nothing", async () => {
    const alice = await userOf("alice");
    const set = await ok<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "metro", questions: QUESTIONS }),
      201,
    );
    const other = await ok<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "other", questions: QUESTIONS }),
      201,
    );
    const [line1, fare] = set.questions;
    const repeated = await call(alice.token, "POST", `/question-sets/${set.id}/changes`, {
      removed: [line1?.id],
      updated: [{ id: fare?.id, ground_truth: "3 yuan" }],
      added: [{ question_text: "when was the University founded?", ground_truth: "1952" }],
    });
    expect(repeated.status).toBe(409);
    expect(await repeated.json()).toMatchObject({
      duplicates: [{ index: 0, question_text: "when was the University founded?" }],
    });
    const foreign = await call(alice.token, "POST", `/question-sets/${set.id}/changes`, {
      updated: [{ id: fare?.id, ground_truth: "3 yuan" }],
      removed: [other.questions[0]?.id],
    });
    expect(foreign.status).toBe(404);
    const now = await ok<SetBody>(call(alice.token, "GET", `/question-sets/${set.id}`));
    expect(now.questions.map((q) => [q.id, q.ground_truth])).toEqual(
      set.questions.map((q) => [q.id, q.ground_truth]),
    );
    expect((await versionsOf(alice.token, set.id)).map((v) => v.number)).toEqual([1]);
  });

  it("numbers changes made at once one after another, each version holding the ones before", async () => {
    const alice = await userOf("alice");
    const set = await ok<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "busy", questions: QUESTIONS }),
      201,
    );
    const texts = Array.from({ length: 6 }, (_, i) => `Concurrent question ${i}?`);
    await Promise.all(
      texts.map((text) =>
        ok(
          call(alice.token, "POST", `/question-sets/${set.id}/questions`, {
            questions: [{ question_text: text, ground_truth: "x" }],
          }),
          201,
        ),
      ),
    );
    const versions = await versionsOf(alice.token, set.id);
    expect(versions.map((v) => [v.number, v.question_count])).toEqual(
      [7, 6, 5, 4, 3, 2, 1].map((n) => [n, n + 2]),
    );
    const latest = await ok<{ questions: VersionQuestion[] }>(
      call(alice.token, "GET", `/question-sets/${set.id}/versions/7`),
    );
    expect(
      latest.questions
        .map((q) => q.question_text)
        .slice(3)
        .sort(),
    ).toEqual(texts);
  });

  it("answers another workspace's set and versions as not found", async () => {
    const alice = await userOf("alice");
    const bob = await userOf("bob");
    const set = await ok<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "private", questions: QUESTIONS }),
      201,
    );
    for (const [method, path] of [
      ["GET", `/question-sets/${set.id}/versions`],
      ["GET", `/question-sets/${set.id}/versions/1`],
      ["GET", `/question-sets/${set.id}/diff?from=1&to=1`],
      ["POST", `/question-sets/${set.id}/versions/1/restore`],
      ["GET", `/question-sets/${set.id}/export?version=1`],
      ["POST", `/question-sets/${set.id}/changes`],
    ] as const) {
      const body =
        method === "POST" && path.endsWith("changes")
          ? { removed: [set.questions[0]?.id] }
          : undefined;
      expect((await call(bob.token, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect(await versionsOf(alice.token, set.id)).toHaveLength(1);
  });

  it("exports a version as the same bytes every time, with its id, and the file imports back", async () => {
    const alice = await userOf("alice");
    const set = await ok<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "Metro: basics", questions: QUESTIONS }),
      201,
    );
    const [v1] = await versionsOf(alice.token, set.id);
    const download = async (format: string, version?: number) => {
      const r = await call(
        alice.token,
        "GET",
        `/question-sets/${set.id}/export?format=${format}${version ? `&version=${version}` : ""}`,
      );
      expect(r.status).toBe(200);
      return {
        bytes: new Uint8Array(await r.arrayBuffer()),
        versionId: r.headers.get("x-question-set-version-id"),
        disposition: r.headers.get("content-disposition"),
      };
    };
    const before: Record<string, Uint8Array> = {};
    for (const format of ["csv", "json", "jsonl"] as const) {
      const first = await download(format);
      const second = await download(format, 1);
      expect(second.bytes).toEqual(first.bytes);
      expect(first.versionId).toBe(v1?.id);
      expect(first.disposition).toBe(`attachment; filename="Metro-basics.version-1.${format}"`);
      const text = new TextDecoder().decode(first.bytes);
      expect(text).toContain(`${v1?.id}`);
      expect(parseQuestionFile(text, format).map((q) => q.question_text)).toEqual(
        QUESTIONS.map((q) => q.question_text),
      );
      const copy = await ok<SetBody>(
        call(alice.token, "POST", "/question-sets/import", {
          name: `copy ${format}`,
          format,
          content: text,
        }),
        201,
      );
      expect(copy.questions.map((q) => q.ground_truth)).toEqual(
        QUESTIONS.map((q) => q.ground_truth),
      );
      before[format] = first.bytes;
    }
    expect(new TextDecoder().decode(before.csv).split("\r\n")[0]).toBe(
      "question_type,question_text,ground_truth,reference_context,ground_truths,relevant_ids,reference_contexts,question_set_version_id",
    );

    // The set moves on; version 1's file does not.
    await ok(
      call(alice.token, "PUT", `/question-sets/questions/${set.questions[0]?.id}`, {
        ground_truth: "2010",
      }),
    );
    for (const format of ["csv", "json", "jsonl"] as const) {
      expect((await download(format, 1)).bytes).toEqual(before[format]);
      const latest = await download(format);
      expect(latest.bytes).not.toEqual(before[format]);
      expect(latest.disposition).toContain(`.version-2.${format}`);
    }
  });

  it("pins each run to its version, and compares runs on two versions on the unchanged questions only", async () => {
    const alice = await userOf("alice");
    const set = await ok<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "metro", questions: QUESTIONS }),
      201,
    );
    const answers = QUESTIONS.map((q) => ({ question: q.question_text, answer: q.ground_truth }));
    const run = async () => {
      const started = await ok<{ id: string }>(
        call(alice.token, "POST", "/evaluations", {
          question_set_id: set.id,
          answers,
          judges: ["offline"],
        }),
        201,
      );
      return vi.waitFor(
        async () => {
          const row = await ok<{
            id: string;
            status: string;
            question_set_version: number | null;
            question_set_version_id: string | null;
          }>(call(alice.token, "GET", `/evaluations/${started.id}`));
          expect(row.status).toBe("COMPLETED");
          return row;
        },
        { timeout: 60_000, interval: 100 },
      );
    };
    const base = await run();
    await ok(
      call(alice.token, "PUT", `/question-sets/questions/${set.questions[1]?.id}`, {
        ground_truth: "3 yuan",
      }),
    );
    const head = await run();
    const versions = await versionsOf(alice.token, set.id);
    expect([base.question_set_version, head.question_set_version]).toEqual([1, 2]);
    expect([base.question_set_version_id, head.question_set_version_id]).toEqual([
      versions[1]?.id,
      versions[0]?.id,
    ]);
    const compared = await ok<{
      incomparable: Array<{ code: string; base?: unknown; head?: unknown }>;
      counts: { shared: number; changed_questions: number; only_base: number; only_head: number };
      items: Array<{ question_text: string }>;
    }>(call(alice.token, "GET", `/evaluations/compare?base=${base.id}&head=${head.id}`));
    expect(compared.counts).toMatchObject({
      shared: 2,
      changed_questions: 1,
      only_base: 0,
      only_head: 0,
    });
    expect(compared.items.map((i) => i.question_text)).not.toContain(QUESTIONS[1]?.question_text);
    expect(compared.incomparable).toContainEqual({
      code: "question_set_version",
      base: 1,
      head: 2,
    });

    // Two runs on one version: nothing left out, no warning about versions.
    const same = await ok<{
      incomparable: Array<{ code: string }>;
      counts: { shared: number; changed_questions: number };
    }>(call(alice.token, "GET", `/evaluations/compare?base=${head.id}&head=${head.id}`));
    expect(same.counts).toMatchObject({ shared: 3, changed_questions: 0 });
    expect(same.incomparable.map((r) => r.code)).not.toContain("question_set_version");
  });

  it("records the version an arena ran on, and refuses a run made on another version", async () => {
    const alice = await userOf("alice");
    const set = await ok<SetBody>(
      call(alice.token, "POST", "/question-sets", { name: "metro", questions: QUESTIONS }),
      201,
    );
    const onVersion1 = await ok<{ id: string }>(
      call(alice.token, "POST", "/evaluations", {
        question_set_id: set.id,
        answers: QUESTIONS.map((q) => ({ question: q.question_text, answer: q.ground_truth })),
        judges: ["offline"],
      }),
      201,
    );
    await ok(
      call(alice.token, "PUT", `/question-sets/questions/${set.questions[0]?.id}`, {
        ground_truth: "2010",
      }),
    );
    const answers = (suffix: string) =>
      QUESTIONS.map((q) => ({ question: q.question_text, answer: `${q.ground_truth}${suffix}` }));
    const arena = await ok<{
      id: string;
      question_set_version: number;
      config: { contestants: Array<{ evaluation_id: string }> };
    }>(
      call(alice.token, "POST", "/arenas", {
        question_set_id: set.id,
        judge: "offline",
        contestants: [
          { name: "a", answers: answers("") },
          { name: "b", answers: answers(" maybe") },
        ],
      }),
      201,
    );
    expect(arena.question_set_version).toBe(2);
    const refused = await call(alice.token, "POST", "/arenas", {
      question_set_id: set.id,
      judge: "offline",
      contestants: [
        { name: "old", evaluation_id: onVersion1.id },
        { name: "b", answers: answers(" maybe") },
      ],
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("ran on version 1 of the question set");
    for (const contestant of arena.config.contestants) {
      const row = await ok<{ question_set_version: number }>(
        call(alice.token, "GET", `/evaluations/${contestant.evaluation_id}`),
      );
      expect(row.question_set_version).toBe(2);
    }
  });
});
