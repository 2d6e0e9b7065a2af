import { z } from "zod";
import type { CollectionConfig } from "./config.js";
import { formatBytes, PARSE_LIMITS, type ParseLimits } from "./limits.js";
import { kindOfPath } from "./parse.js";
import type { ParseOutcome } from "./parse-job.js";
import { ParseLimitError, parseOffThread } from "./parse-thread.js";
import type { PreparedDocument } from "./prepare.js";

const KINDS = ["markdown", "text", "html", "pdf", "jsonl"] as const;

/** One uploaded file: text content, or base64 bytes (PDF); the kind defaults from the name. */
export const UploadSchema = z
  .object({
    name: z.string().trim().min(1).max(512),
    kind: z.enum(KINDS).optional(),
    content: z.string().optional(),
    content_base64: z.string().optional(),
  })
  .refine((u) => (u.content === undefined) !== (u.content_base64 === undefined), {
    message: "exactly one of content or content_base64",
    path: ["content"],
  });
export type Upload = z.infer<typeof UploadSchema>;

export const UploadsSchema = z.object({ documents: z.array(UploadSchema).min(1).max(1_000) });

export interface UploadProblem {
  /** e.g. `documents.2` or `documents.0.line 3`. */
  path: string;
  message: string;
}

/**
 * Parses and chunks every upload before anything is written, so a request with one bad file or
 * line is rejected whole with each problem named. Files are read on the parse thread, one after
 * another, within PARSE_LIMITS; the first file to pass a limit ends the reading (the files after
 * it are not read).
 */
export async function parseUploads(
  uploads: readonly Upload[],
  options: { chunking: CollectionConfig; limits?: ParseLimits },
): Promise<{ documents: PreparedDocument[]; problems: UploadProblem[] }> {
  const limits = options.limits ?? PARSE_LIMITS;
  const documents: PreparedDocument[] = [];
  const problems: UploadProblem[] = [];
  let decodedLeft = limits.decodedBytesPerRequest;
  for (const [i, upload] of uploads.entries()) {
    const kind = upload.kind ?? kindOfPath(upload.name);
    if (!kind) {
      problems.push({
        path: `documents.${i}.kind`,
        message: `unknown format for "${upload.name}": give kind`,
      });
      continue;
    }
    const bytes =
      upload.content_base64 !== undefined
        ? Buffer.from(upload.content_base64, "base64")
        : Buffer.from(upload.content ?? "", "utf8");
    if (kind === "pdf" && decodedLeft <= 0) {
      problems.push({
        path: `documents.${i}`,
        message: `${upload.name}: not read: the PDFs before it in this request used up the ${formatBytes(limits.decodedBytesPerRequest)} their streams may decode to`,
      });
      continue;
    }
    const decodedBytes =
      decodedLeft < limits.decodedBytesPerDocument
        ? {
            limit: decodedLeft,
            of: `what was left of ${formatBytes(limits.decodedBytesPerRequest)} for the PDFs of one request`,
          }
        : { limit: limits.decodedBytesPerDocument, of: "the limit per document" };
    let outcome: ParseOutcome;
    try {
      outcome = await parseOffThread(
        {
          bytes,
          source: upload.name,
          kind,
          fallbackTitle: upload.name.replace(/\.[^.]+$/, ""),
          chunking: options.chunking,
          decodedBytes,
        },
        limits,
      );
    } catch (error) {
      // Anything but a limit is the server's failure (a thread that could not start), not the
      // file's: it is no 400, and its message (which may hold a path) is not the user's to read.
      if (!ParseLimitError.isInstance(error)) throw error;
      problems.push({ path: `documents.${i}`, message: `${upload.name}: ${error.message}` });
      break;
    }
    decodedLeft -= outcome.decodedBytes;
    for (const item of outcome.items) {
      if (item.ok) documents.push(item.document);
      else {
        problems.push({
          path: item.line === undefined ? `documents.${i}` : `documents.${i}.line ${item.line}`,
          message: item.message,
        });
      }
    }
  }
  return { documents, problems };
}
