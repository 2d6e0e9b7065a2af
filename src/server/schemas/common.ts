import { z } from "zod";
import { responseSchema } from "../components.js";

// Shapes every area shares: coded messages, errors, times and ids, file downloads.

/** A clause worded by its own code inside another message (text/user-messages.ts MessagePart). */
const MessagePartSchema = z.object({
  code: z.string(),
  params: z.unknown().describe("what fills the clause, as a message's params"),
});

/** A sentence for a person as a code (text/user-messages.ts) the web app words in its language. */
export const CodedMessageSchema = responseSchema(
  "CodedMessage",
  z.object({
    code: z.string().describe('what happened, e.g. "calibration.few_labels"'),
    params: z
      .record(
        z.string(),
        z.union([
          z.string(),
          z.number(),
          z.array(z.string()),
          z.array(z.object({ kind: z.string(), count: z.number().int(), example: z.string() })),
          MessagePartSchema,
          z.array(MessagePartSchema),
        ]),
      )
      .describe(
        "what fills the sentence; a list of names; model failures as groups by kind with a count; clauses worded by their own codes",
      ),
    message: z.string().describe("the sentence in English"),
  }),
);

export const ErrorSchema = responseSchema(
  "Error",
  z.object({
    error: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    /** A rejected import: every bad row of the file (1-based), the field at fault, and why. */
    rows: z
      .array(z.object({ row: z.number().int(), field: z.string(), message: z.string() }))
      .optional(),
    /** The arena contestant at fault (by name). */
    contestant: z.string().optional(),
    /** Questions already in the set (their index in the request's list). */
    duplicates: z
      .array(z.object({ index: z.number().int(), question_text: z.string() }))
      .optional(),
    /** A rejected label file: every bad or unmatched line (1-based), the field at fault, and why. */
    lines: z
      .array(z.object({ line: z.number().int(), field: z.string(), message: z.string() }))
      .optional(),
  }),
);

// Times are ISO 8601 strings on the wire.

export const Time = z.string().describe("an ISO 8601 time");
export const Id = z.string().meta({ format: "uuid" });
export const Nullable = <S extends z.ZodType>(schema: S) => schema.nullable();

export const OkSchema = responseSchema("Ok", z.object({ status: z.literal("ok") }));

export const FileDownloadSchema = z.string().describe("the file's text");
