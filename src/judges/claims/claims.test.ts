// The claims judge against the scripted OpenAI-compatible server, playing RAGChecker's own example
// (bench/data/public/ragchecker-example): it extracts that file's claims and answers each check
// with that file's verdicts. The judge must route every verdict to the right claim and chunk, so
// its metrics equal the file's.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  promptText,
  type RecordedRequest,
  type ScriptedReply,
} from "../../../test/support/scripted-llm.js";
import { scriptedClient, useScriptedLlm } from "../../../test/support/use-scripted-llm.js";
import type { LlmClient } from "../../llm/index.js";
import { JudgesConfigSchema } from "../config.js";
import { claims } from "./claims.js";
import { CLAIMS_PROMPTS } from "./claims.prompts.js";
import type { ClaimVerdict } from "./metrics.js";

interface Example {
  query: string;
  gt_answer: string;
  response: string;
  retrieved_context: { doc_id: string; text: string }[];
  response_claims: string[][];
  gt_answer_claims: string[][];
  answer2response: ClaimVerdict[];
  response2answer: ClaimVerdict[];
  retrieved2response: ClaimVerdict[][];
  retrieved2answer: ClaimVerdict[][];
  metrics: Record<string, number>;
}

const examples = (
  JSON.parse(
    readFileSync(
      join(
        import.meta.dirname,
        "../../../bench/data/public/ragchecker-example/checking_outputs.json",
      ),
      "utf8",
    ),
  ) as { results: Example[] }
).results;

const claimText = (triplet: string[]) => triplet.join(" ");

/** Answers like the model that produced the example: its claims, then its verdicts. */
function playExample(example: Example) {
  const responseClaims = example.response_claims.map(claimText);
  const answerClaims = example.gt_answer_claims.map(claimText);
  return (request: RecordedRequest): ScriptedReply => {
    const system = request.body.messages?.[0]?.content ?? "";
    const user = request.body.messages?.[1]?.content ?? "";
    if (system === CLAIMS_PROMPTS.en.extract.system) {
      return {
        json: { claims: user.includes(example.response) ? responseClaims : answerClaims },
      };
    }
    const ofResponse = user.includes(`1. ${responseClaims[0]}\n`);
    if (user.includes(example.gt_answer) && ofResponse) {
      return { json: { verdicts: example.answer2response } };
    }
    if (user.includes(example.response) && !ofResponse) {
      return { json: { verdicts: example.response2answer } };
    }
    const k = example.retrieved_context.findIndex((chunk) => user.includes(chunk.text));
    const matrix = ofResponse ? example.retrieved2response : example.retrieved2answer;
    return { json: { verdicts: matrix.map((row) => row[k]) } };
  };
}

const server = useScriptedLlm();
let client: LlmClient;
beforeAll(() => {
  client = scriptedClient(server, "judge");
});

const inputOf = (example: Example) => ({
  question: example.query,
  answer: example.response,
  ground_truth: example.gt_answer,
  contexts: example.retrieved_context.map((chunk) => ({
    content: chunk.text,
    node_id: chunk.doc_id,
  })),
});

describe("claims, with the judge LLM", () => {
  it.each(examples.map((example, i) => [i, example] as const))(
    "RAGChecker example %i: the model's claims and verdicts give RAGChecker's metrics",
    async (_i, example) => {
      server.on({ reply: playExample(example) });
      const result = await claims({ ...inputOf(example), client });
      if (result.outcome !== "ok") throw new Error(`judge_error: ${result.error.message}`);
      expect(result.verdict.metrics).toEqual(example.metrics);
      expect(result.verdict.approximate).toBeNull();
      // 2 extractions, 2 checks against the other text, 2 per chunk.
      const chunks = example.retrieved_context.length;
      expect(server.requests).toHaveLength(4 + 2 * chunks);
      expect(result.calls).toHaveLength(4 + 2 * chunks);
      const f1 = example.metrics.f1 as number;
      expect(result.score).toBe(Math.round(f1 * 10_000) / 10_000);
      expect(result.passed).toBe(f1 >= 0.5);
    },
  );

  it("diagnoses each missed and unsupported claim with the chunk it came from", async () => {
    const example = examples[0] as Example;
    server.on({ reply: playExample(example) });
    const result = await claims({ ...inputOf(example), client });
    if (result.outcome !== "ok") throw new Error(result.error.message);
    const { diagnosis, chunks } = result.verdict;
    // "Amazon River length 4,350 miles": contradicted by the ground truth, in no chunk.
    expect(diagnosis.unsupported).toContainEqual({
      claim: "Amazon River length 4,350 miles",
      contradicts: true,
      chunk: null,
    });
    // "Amazon River length about 7,000 kilometers": not in the ground truth, taken from chunk 4.
    expect(diagnosis.unsupported).toContainEqual({
      claim: "Amazon River length about 7,000 kilometers",
      contradicts: false,
      chunk: 4,
    });
    // The Nile's drainage basin covering eleven countries: missed, and no chunk holds it.
    expect(diagnosis.missed).toContainEqual({
      claim: "The Nile's drainage basin covers eleven countries",
      chunk: null,
    });
    expect(diagnosis.missed).toHaveLength(11);
    expect(chunks.map((chunk) => chunk.relevant)).toEqual([true, true, false, true]);
    expect(chunks[0]).toMatchObject({ node_id: "000" });
  });

  it("re-asks a check whose verdicts do not match its claims, then is a judge_error", async () => {
    const example = examples[0] as Example;
    const play = playExample(example);
    server.on({
      reply: (request) => {
        const reply = play(request);
        // Every check answers one verdict short.
        if ("json" in reply && Array.isArray((reply.json as { verdicts?: unknown }).verdicts)) {
          return { json: { verdicts: (reply.json as { verdicts: string[] }).verdicts.slice(1) } };
        }
        return reply;
      },
    });
    const result = await claims({ ...inputOf(example), client });
    if (result.outcome !== "judge_error") throw new Error("expected a judge_error");
    expect(result.error).toMatchObject({ cause: "reply", retryable: true });
    expect(result.error.message).toMatch(/expected \d+ verdicts, one per claim in order/);
    expect(result.score).toBeNull();
  });

  it("checks the claims against the top max_chunks chunks only", async () => {
    const example = examples[1] as Example;
    server.on({ reply: playExample(example) });
    const config = JudgesConfigSchema.parse({ claims: { max_chunks: 1 } });
    const result = await claims({ ...inputOf(example), client, config });
    if (result.outcome !== "ok") throw new Error(result.error.message);
    // Only this question's requests: calls the previous test aborted may still reach the server.
    const prompts = server.requests
      .map((request) => promptText(request))
      .filter((text) => text.includes(example.query));
    expect(prompts).toHaveLength(4 + 2);
    expect(result.verdict.chunks).toHaveLength(1);
    expect(prompts.filter((text) => text.includes("retrieved passage 1"))).toHaveLength(2);
    expect(prompts.some((text) => text.includes("retrieved passage 2"))).toBe(false);
  });

  it("asks in Chinese for a Chinese question", async () => {
    server.on({ reply: { json: { claims: [] } } });
    const result = await claims({
      question: "尼罗河有多长？",
      answer: "尼罗河全长约6650公里。",
      ground_truth: "约6650公里。",
      client,
    });
    expect(result.language).toBe("zh");
    expect(promptText(server.requests[0] as RecordedRequest)).toContain("拆成");
    // No claims on either side: nothing to check, every metric 0, as RAGChecker has it.
    expect(server.requests).toHaveLength(2);
    if (result.outcome !== "ok") throw new Error(result.error.message);
    expect(result.verdict.metrics.f1).toBe(0);
  });
});
