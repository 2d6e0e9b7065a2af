import { z } from "zod";
import { ContextItemSchema, type ContextItem } from "../context.js";
import { ReferenceFieldsSchema, referencesOf } from "../references.js";
import { type ClaimChecks, type ClaimMetrics, type ClaimVerdict, claimMetrics } from "./metrics.js";

/** The words every offline claims verdict carries, so no reader takes it for RAGChecker's own. */
export const OFFLINE_APPROXIMATION = "approximate: sentences as claims, offline entailment";

/** What both claims judges read: the question, the answer, a ground truth and the chunks. */
export const ClaimsInputSchema = z
  .object({
    question: z.string().trim().min(1, "a non-empty question"),
    answer: z.string(),
    /** Retrieved chunks in the retriever's order. */
    contexts: z.array(ContextItemSchema).default([]),
  })
  .extend(ReferenceFieldsSchema.shape)
  .refine((input) => referencesOf(input).length > 0, {
    path: ["ground_truth"],
    message: "a non-blank ground truth (the claims judges compare the answer's claims with it)",
  });
export type ClaimsInput = z.input<typeof ClaimsInputSchema>;

/** A claim of the answer: does the ground truth entail it, and which chunks do. */
export interface ResponseClaim {
  text: string;
  ground_truth: ClaimVerdict;
  /** One verdict per chunk, in the chunks' order. */
  chunks: ClaimVerdict[];
}

/** A claim of the ground truth: does the answer entail it, and which chunks do. */
export interface GroundTruthClaim {
  text: string;
  response: ClaimVerdict;
  chunks: ClaimVerdict[];
}

export interface ChunkSummary {
  node_id?: string;
  source?: string;
  /** Whether the chunk entails some ground-truth claim (RAGChecker's relevant chunk). */
  relevant: boolean;
}

/**
 * Why the answer falls short, claim by claim. `chunk` is a 1-based chunk number, or null:
 * - missed: a ground-truth claim the answer does not state; with a chunk, retrieval found it and
 *   the generator left it out; null, no chunk holds it (the retriever missed it).
 * - unsupported: an answer claim the ground truth does not entail; with a chunk, the chunk it was
 *   taken from (noise); null, no chunk holds it either (hallucination).
 */
export interface ClaimsDiagnosis {
  missed: { claim: string; chunk: number | null }[];
  unsupported: { claim: string; contradicts: boolean; chunk: number | null }[];
}

export interface ClaimsVerdict {
  /** null when an LLM extracted and checked the claims; OFFLINE_APPROXIMATION offline. */
  approximate: string | null;
  /** RAGChecker's metrics for this answer, each on [0, 1]. */
  metrics: ClaimMetrics;
  response_claims: ResponseClaim[];
  ground_truth_claims: GroundTruthClaim[];
  chunks: ChunkSummary[];
  diagnosis: ClaimsDiagnosis;
}

/** The verdict sets in RAGChecker's names, from a verdict's claims. */
export function checksOf(verdict: Pick<ClaimsVerdict, "response_claims" | "ground_truth_claims">) {
  return {
    answer2response: verdict.response_claims.map((claim) => claim.ground_truth),
    response2answer: verdict.ground_truth_claims.map((claim) => claim.response),
    retrieved2response: verdict.response_claims.map((claim) => claim.chunks),
    retrieved2answer: verdict.ground_truth_claims.map((claim) => claim.chunks),
  } satisfies ClaimChecks;
}

const firstEntailing = (chunks: readonly ClaimVerdict[]): number | null => {
  const index = chunks.indexOf("Entailment");
  return index < 0 ? null : index + 1;
};

/** The claims, their verdicts and the chunks as one verdict: metrics and diagnosis included. */
export function claimsVerdict(parts: {
  approximate: string | null;
  response_claims: ResponseClaim[];
  ground_truth_claims: GroundTruthClaim[];
  contexts: readonly ContextItem[];
}): ClaimsVerdict {
  const { response_claims, ground_truth_claims } = parts;
  const chunks = parts.contexts.map((item, k): ChunkSummary => {
    const relevant = ground_truth_claims.some((claim) => claim.chunks[k] === "Entailment");
    if (typeof item === "string") return { relevant };
    return {
      ...(item.node_id !== undefined ? { node_id: item.node_id } : {}),
      ...(item.source !== undefined ? { source: item.source } : {}),
      relevant,
    };
  });
  return {
    approximate: parts.approximate,
    metrics: claimMetrics(checksOf(parts)),
    response_claims,
    ground_truth_claims,
    chunks,
    diagnosis: {
      missed: ground_truth_claims
        .filter((claim) => claim.response !== "Entailment")
        .map((claim) => ({ claim: claim.text, chunk: firstEntailing(claim.chunks) })),
      unsupported: response_claims
        .filter((claim) => claim.ground_truth !== "Entailment")
        .map((claim) => ({
          claim: claim.text,
          contradicts: claim.ground_truth === "Contradiction",
          chunk: firstEntailing(claim.chunks),
        })),
    },
  };
}

/** A chunk's text, whether given as a string or as a retrieval hit. */
export function chunkText(item: ContextItem): string {
  return typeof item === "string" ? item : item.content;
}
