import { z } from "zod";
import { parseJsonl } from "../../formats/index.js";
import { type ParsedDocument, paragraphs } from "./document.js";

/** One document per line: `{id?, title?, text, metadata?}`; other keys are ignored. */
export const JsonlDocumentSchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]).optional(),
  title: z.string().optional(),
  text: z.string().refine((text) => text.trim().length > 0, "must not be blank"),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type JsonlDocument = z.infer<typeof JsonlDocumentSchema>;

export type JsonlDocumentLine =
  { line: number; ok: true; document: ParsedDocument } | { line: number; ok: false; error: string };

/**
 * Documents of a JSONL file. A line's source is `${path}#${id}`, or `${path}#L${line}` without an
 * id, so re-ingesting an edited line replaces that line's document. A repeated id is an error on
 * the later line.
 */
export async function* parseJsonlDocuments(
  input: AsyncIterable<Uint8Array | string>,
  path: string,
  fallbackTitle: string,
): AsyncGenerator<JsonlDocumentLine> {
  const seen = new Map<string, number>();
  for await (const entry of parseJsonl(input, JsonlDocumentSchema)) {
    if (!entry.ok) {
      yield entry;
      continue;
    }
    const { id, title, text, metadata } = entry.value;
    const key = id === undefined ? undefined : String(id);
    if (key !== undefined) {
      const first = seen.get(key);
      if (first !== undefined) {
        yield { line: entry.line, ok: false, error: `id: "${key}" repeats line ${first}` };
        continue;
      }
      seen.set(key, entry.line);
    }
    yield {
      line: entry.line,
      ok: true,
      document: {
        source: `${path}#${key ?? `L${entry.line}`}`,
        ...(key !== undefined ? { external_id: key } : {}),
        kind: "jsonl",
        title: title?.trim() || key || `${fallbackTitle} line ${entry.line}`,
        blocks: paragraphs(text).map((paragraph) => ({ text: paragraph })),
        metadata: metadata ?? {},
      },
    };
  }
}
