// What a production answer arrives as, by any door: seed 004's EvaluatorInput plus what a trace or
// a client knows about the call (issue 24 §1).

import { z } from "zod";
import { EvaluatorInputSchema } from "../gate/index.js";

const label = z.string().trim().min(1).max(256);

export const AnswerInputSchema = EvaluatorInputSchema.extend({
  session_id: label.optional(),
  trace_id: label.optional(),
  /** The service that answered (OpenTelemetry's service.name). */
  service: label.optional(),
  /** The collection or index it retrieved from. */
  collection: label.optional(),
  latency_ms: z.number().int().min(0).max(86_400_000).optional(),
  usage: z
    .object({
      prompt_tokens: z.number().int().min(0).max(100_000_000).optional(),
      completion_tokens: z.number().int().min(0).max(100_000_000).optional(),
    })
    .optional(),
  /** Anything else to filter and break down by: string, number or boolean values. */
  metadata: z
    .record(z.string().max(128), z.union([z.string().max(1_000), z.number(), z.boolean()]))
    .refine((value) => Object.keys(value).length <= 64, "at most 64 keys")
    .optional(),
});
export type AnswerInput = z.infer<typeof AnswerInputSchema>;
/** An answer as a caller sends it (fields with defaults may be left out). */
export type AnswerInputIn = z.input<typeof AnswerInputSchema>;

/** At most this many answers in one request. */
export const MAX_ANSWERS_PER_BATCH = 1_000;
