import { z } from "zod";
import {
  type CallRecord,
  type ChatMessage,
  failedCallOf,
  generateObject,
  LlmAbortError,
  LlmError,
} from "../../llm/index.js";
import { DEFAULT_JUDGES_CONFIG } from "../config.js";
import { truncateChars } from "../context.js";
import { promptLanguage } from "../language.js";
import { referencesOf } from "../references.js";
import {
  type JudgeCallOptions,
  type JudgeErrorDetail,
  type JudgeResult,
  judgeErrorDetailOf,
  judgeFailure,
  parseJudgeInput,
  round,
} from "../result.js";
import { fillTemplate, renderPrompt } from "../template.js";
import { CLAIMS_PROMPTS } from "./claims.prompts.js";
import { CLAIM_VERDICTS, type ClaimVerdict } from "./metrics.js";
import {
  type ClaimsInput,
  ClaimsInputSchema,
  type ClaimsVerdict,
  chunkText,
  claimsVerdict,
} from "./verdict.js";

export type ClaimsResult = JudgeResult<"claims", ClaimsVerdict>;

export const ClaimsReplySchema = z.object({
  claims: z.array(z.string().trim().min(1)).max(100),
});

/** The check reply for `count` claims: one verdict each, in order. */
export function verdictsReplySchema(count: number) {
  return z.object({ verdicts: z.array(z.enum(CLAIM_VERDICTS)) }).superRefine((reply, context) => {
    if (reply.verdicts.length === count) return;
    context.addIssue({
      code: "custom",
      path: ["verdicts"],
      message: `expected ${count} verdicts, one per claim in order, got ${reply.verdicts.length}`,
    });
  });
}

/** A step whose reply stayed unusable after the re-ask, or whose call failed. */
class StepFailure extends Error {
  constructor(readonly detail: JudgeErrorDetail) {
    super(detail.message);
  }
}

/**
 * RAGChecker's claim-level diagnosis with the judge LLM: claims extracted from the answer and the
 * ground truth (2 calls), then each claim set checked against the other text and against each
 * retrieved chunk, one call per claim set per reference (2 + 2 × chunks calls; none for an empty
 * set). The score is the claim F1; it passes at `judges.claims.pass_min_f1`. With several
 * references the first is the ground truth. A failed step makes the result a judge_error holding
 * every call made; only an abort throws.
 */
export async function claims(args: ClaimsInput & JudgeCallOptions): Promise<ClaimsResult> {
  const input = parseJudgeInput("claims", ClaimsInputSchema, args);
  const config = (args.config ?? DEFAULT_JUDGES_CONFIG).claims;
  const language = promptLanguage(args.language ?? args.config?.language, input.question);
  const prompts = CLAIMS_PROMPTS[language];
  const { client, signal, timeoutMs, noCache, seed } = args;
  const groundTruth = referencesOf(input)[0] as string;
  const contexts = input.contexts.slice(0, config.max_chunks);
  const calls: CallRecord[] = [];
  const base = { name: "claims" as const, language, model: client.model };
  // The first failed step stops the calls still in flight: the result is a judge_error anyway.
  const stop = new AbortController();
  const stepSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;

  /** Every step's value; waits for all to settle, so no call outlives the judge. */
  async function all<T extends readonly unknown[]>(steps: {
    [K in keyof T]: Promise<T[K]>;
  }): Promise<T> {
    const settled = await Promise.allSettled(steps);
    const failures = settled.flatMap((step) => (step.status === "rejected" ? [step.reason] : []));
    if (failures.length === 0) {
      return settled.map((step) => (step as PromiseFulfilledResult<unknown>).value) as unknown as T;
    }
    if (signal?.aborted) throw signal.reason;
    throw failures.find((reason) => reason instanceof StepFailure) ?? failures[0];
  }

  async function ask<T>(
    schema: z.ZodType<T>,
    schemaName: string,
    messages: ChatMessage[],
  ): Promise<T> {
    try {
      const reply = await generateObject({
        client,
        messages,
        schema,
        schemaName,
        signal: stepSignal,
        timeoutMs,
        noCache,
        seed,
      });
      calls.push(...reply.calls);
      if (reply.ok) return reply.value;
      stop.abort();
      // A fresh sample may parse where the re-ask did not.
      throw new StepFailure({
        message: reply.error,
        cause: "reply",
        retryable: true,
        raw: reply.raw,
      });
    } catch (error) {
      if (error instanceof StepFailure || stop.signal.aborted) throw error;
      if (signal?.aborted || !LlmError.isInstance(error) || LlmAbortError.isInstance(error)) {
        throw error;
      }
      stop.abort();
      const failed = failedCallOf(error);
      if (failed) calls.push(failed);
      throw new StepFailure(judgeErrorDetailOf(error));
    }
  }

  const extract = async (text: string): Promise<string[]> => {
    if (text.trim() === "") return [];
    const messages = renderPrompt(prompts.extract, { question: input.question, text });
    return (await ask(ClaimsReplySchema, "claims", messages)).claims;
  };

  const check = async (
    claimTexts: readonly string[],
    reference: string,
    referenceText: string,
  ): Promise<ClaimVerdict[]> => {
    if (claimTexts.length === 0) return [];
    const messages = renderPrompt(prompts.check, {
      question: input.question,
      reference,
      reference_text: referenceText,
      claims: claimTexts.map((claim, i) => `${i + 1}. ${claim}`).join("\n"),
      count: String(claimTexts.length),
    });
    return (await ask(verdictsReplySchema(claimTexts.length), "claim_verdicts", messages)).verdicts;
  };

  /** The claims' verdicts against each chunk, claim by claim (rows) then chunk (columns). */
  const checkChunks = async (claimTexts: readonly string[]): Promise<ClaimVerdict[][]> => {
    const columns = await all<ClaimVerdict[][]>(
      contexts.map((item, k) =>
        check(
          claimTexts,
          fillTemplate(prompts.references.chunk, { n: String(k + 1) }),
          truncateChars(chunkText(item), config.max_chunk_chars),
        ),
      ),
    );
    return claimTexts.map((_, i) => columns.map((column) => column[i] as ClaimVerdict));
  };

  try {
    const [responseClaims, answerClaims] = await all<[string[], string[]]>([
      extract(input.answer),
      extract(groundTruth),
    ]);
    const [answer2response, response2answer, retrieved2response, retrieved2answer] = await all<
      [ClaimVerdict[], ClaimVerdict[], ClaimVerdict[][], ClaimVerdict[][]]
    >([
      check(responseClaims, prompts.references.ground_truth, groundTruth),
      check(answerClaims, prompts.references.response, input.answer),
      checkChunks(responseClaims),
      checkChunks(answerClaims),
    ]);
    const verdict = claimsVerdict({
      approximate: null,
      contexts,
      response_claims: responseClaims.map((text, i) => ({
        text,
        ground_truth: answer2response[i] as ClaimVerdict,
        chunks: retrieved2response[i] as ClaimVerdict[],
      })),
      ground_truth_claims: answerClaims.map((text, g) => ({
        text,
        response: response2answer[g] as ClaimVerdict,
        chunks: retrieved2answer[g] as ClaimVerdict[],
      })),
    });
    const f1 = round(verdict.metrics.f1, 4);
    return {
      ...base,
      calls,
      outcome: "ok",
      score: f1,
      raw_score: f1,
      passed: verdict.metrics.f1 >= config.pass_min_f1,
      verdict,
    };
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    return judgeFailure({ ...base, calls }, error.detail);
  }
}
