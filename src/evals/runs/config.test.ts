import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config/index.js";
import {
  EvaluationRequestSchema,
  evaluationSnapshot,
  judgeModelIdOf,
  publicSnapshot,
  publicUrl,
} from "./config.js";

describe("evaluation snapshot", () => {
  it("records models, prompt versions and the gate's rule version, and never a key", async () => {
    const config = await loadConfig({
      cwd: "/nonexistent",
      env: {
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
        OPENAI_API_KEY: "sk-secret-value-123456",
        RAGJUDGE_JUDGE_MODEL: "judge-model",
      },
    });
    const request = EvaluationRequestSchema.parse({
      question_set_id: "7d0c1f4e-8f1a-4a43-9d51-0c7a7e2b5a10",
      judges: ["offline", "reference"],
    });
    const snapshot = evaluationSnapshot(request, config, null);
    expect(JSON.stringify(snapshot)).not.toContain("sk-secret");
    expect(snapshot.models.judge).toMatchObject({ model: "judge-model" });
    expect(Object.keys(snapshot.prompt_versions).sort()).toEqual(["reference", "review", "rubric"]);
    expect(snapshot.rule_version).toMatch(/^gate-/);
    expect(judgeModelIdOf(snapshot)).toBe("judge-model");
    // Not said who started it: the restrictive side (the network policy, no operator token).
    expect(snapshot.submitted_via).toBe("api");
  });

  it("changes the rubric's prompt version with its person-scored few-shot examples", async () => {
    const config = await loadConfig({ cwd: "/nonexistent", env: {} });
    const request = EvaluationRequestSchema.parse({
      question_set_id: "7d0c1f4e-8f1a-4a43-9d51-0c7a7e2b5a10",
      judges: ["rubric"],
    });
    const before = evaluationSnapshot(request, config, null).prompt_versions;
    const example = { question: "q", context: "", answer: "a", score: 2, note: "" };
    const withFewshot = (fewshot: (typeof example)[]) =>
      evaluationSnapshot(
        request,
        { ...config, judges: { ...config.judges, rubric: { ...config.judges.rubric, fewshot } } },
        null,
      ).prompt_versions;
    const after = withFewshot([example]);
    expect(after.rubric).not.toBe(before.rubric);
    expect(withFewshot([{ ...example, score: 3 }]).rubric).not.toBe(after.rubric);
    expect(after.review).toBe(before.review);
    expect(withFewshot([]).rubric).toBe(before.rubric);
  });

  it("keeps the server's file paths out of the snapshot users read", async () => {
    const config = await loadConfig({ cwd: "/nonexistent", env: {} });
    config.rag.loops.observations.path = "/srv/ragjudge-home/observational_data.jsonl";
    const request = EvaluationRequestSchema.parse({
      question_set_id: "7d0c1f4e-8f1a-4a43-9d51-0c7a7e2b5a10",
    });
    const snapshot = evaluationSnapshot(request, config, "c1");
    expect(JSON.stringify(snapshot)).not.toContain("/srv/ragjudge-home");
    expect(snapshot.rag.loops.observations.path).toBeNull();
    // The rest of the loops' settings still decide, and show, how the run was made.
    expect(snapshot.rag.loops.answer).toEqual(config.rag.loops.answer);
  });

  it("leaves the path out of snapshots stored before it was kept out", async () => {
    const config = await loadConfig({ cwd: "/nonexistent", env: {} });
    const request = EvaluationRequestSchema.parse({
      question_set_id: "7d0c1f4e-8f1a-4a43-9d51-0c7a7e2b5a10",
    });
    const old = structuredClone(evaluationSnapshot(request, config, "c1")) as {
      rag: { loops: { observations: { path: string | null } } };
    };
    old.rag.loops.observations.path = "/srv/ragjudge-home/observational_data.jsonl";
    expect(JSON.stringify(publicSnapshot(old))).not.toContain("/srv/ragjudge-home");
    expect(publicSnapshot({ bot: { kind: "builtin" } })).toEqual({ bot: { kind: "builtin" } });
  });

  it("refuses credentials in an HTTP bot's URL, naming the field", () => {
    const result = EvaluationRequestSchema.safeParse({
      question_set_id: "7d0c1f4e-8f1a-4a43-9d51-0c7a7e2b5a10",
      bot: { kind: "http", url: "http://user:pw@127.0.0.1:8787/ask" },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["bot", "url"]);
  });

  it("shows URLs without credentials or query", () => {
    expect(publicUrl("https://u:p@bot.example/ask?key=1")).toBe("https://bot.example/ask");
  });
});
