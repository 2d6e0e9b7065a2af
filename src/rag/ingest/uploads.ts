import { z } from "zod";
import type { ParsedDocument } from "./document.js";
import { parseJsonlDocuments } from "./jsonl.js";
import { kindOfPath, parseBytes } from "./parse.js";

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

async function* once(bytes: Uint8Array) {
  yield bytes;
}

/**
 * Parses every upload before anything is written, so a request with one bad file or line is
 * rejected whole with each problem named.
 */
export async function parseUploads(
  uploads: readonly Upload[],
): Promise<{ documents: ParsedDocument[]; problems: UploadProblem[] }> {
  const documents: ParsedDocument[] = [];
  const problems: UploadProblem[] = [];
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
    const title = upload.name.replace(/\.[^.]+$/, "");
    if (kind === "jsonl") {
      for await (const line of parseJsonlDocuments(once(bytes), upload.name, title)) {
        if (line.ok) documents.push(line.document);
        else problems.push({ path: `documents.${i}.line ${line.line}`, message: line.error });
      }
      continue;
    }
    try {
      documents.push(await parseBytes(bytes, upload.name, kind, title));
    } catch (error) {
      problems.push({ path: `documents.${i}`, message: (error as Error).message });
    }
  }
  return { documents, problems };
}
