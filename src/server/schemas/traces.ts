import { z } from "zod";

// OpenTelemetry traces that could not become answer records, with the reason for each.

export const RejectedTraceListSchema = z.object({
  total: z.number().int().describe("every trace of yours that could not be gated"),
  items: z.array(
    z.object({
      trace_id: z.string(),
      service: z.string().nullable(),
      reason: z.string().describe("why it could not become an answer record, in words"),
      span_count: z.number().int(),
      received_at: z.string(),
    }),
  ),
});
