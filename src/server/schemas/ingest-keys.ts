import { z } from "zod";
import { responseSchema } from "../components.js";

// Ingest keys (issue 24): write-only keys a production app sends its answers with, shown once.

export const CreateIngestKeySchema = z
  .object({
    label: z.string().trim().max(200).default("").describe("what the key is for, e.g. the service"),
  })
  .strict();

export const IngestKeySchema = responseSchema(
  "IngestKey",
  z.object({
    id: z.uuid(),
    label: z.string(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
  }),
);

export const CreatedIngestKeySchema = responseSchema(
  "CreatedIngestKey",
  IngestKeySchema.extend({
    key: z.string().describe("the key itself: shown this once, only its hash is stored"),
  }),
);

export const IngestKeyListSchema = responseSchema(
  "IngestKeyList",
  z.object({ items: z.array(IngestKeySchema) }),
);
