import type { z } from "zod";
import { describeIssues } from "./issues.js";
import { describeStrictJsonError, parseStrictJson } from "../text/index.js";

export type JsonlLine<T> =
  { line: number; ok: true; value: T } | { line: number; ok: false; error: string };

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into numbered lines, decoding each strictly as UTF-8 so invalid bytes are
 * reported against their line instead of silently becoming U+FFFD. Blank lines are skipped.
 */
export async function* readLines(
  source: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<{ line: number; text?: string; error?: string; bytes?: Uint8Array }> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending: Uint8Array[] = [];
  let line = 0;
  const emit = (bytes: Uint8Array) => {
    line += 1;
    try {
      const text = decoder
        .decode(bytes)
        .replace(/\r$/, "")
        .replace(/^\uFEFF/, "");
      return { line, text };
    } catch {
      // The bytes go along, so a JSON reader can name the field holding the bad byte.
      return { line, error: "invalid UTF-8 in this line", bytes };
    }
  };
  for await (const chunk of source) {
    let bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let index = bytes.indexOf(NEWLINE);
    while (index !== -1) {
      const head = bytes.subarray(0, index);
      const whole = pending.length > 0 ? Buffer.concat([...pending, head]) : head;
      pending = [];
      const out = emit(whole);
      if (out.error || out.text?.trim()) yield out;
      bytes = bytes.subarray(index + 1);
      index = bytes.indexOf(NEWLINE);
    }
    if (bytes.length > 0) pending.push(bytes);
  }
  if (pending.length > 0) {
    const out = emit(Buffer.concat(pending));
    if (out.error || out.text?.trim()) yield out;
  }
}

/**
 * Parses and validates each line with `schema`; a bad line yields an error naming the field. Lines
 * are read by parseStrictJson, as HTTP bodies are: strict UTF-8, at most 64 levels deep, no NUL
 * and no lone surrogate.
 */
export async function* parseJsonl<S extends z.ZodType>(
  source: AsyncIterable<Uint8Array | string>,
  schema: S,
): AsyncGenerator<JsonlLine<z.infer<S>>> {
  for await (const { line, text, error, bytes } of readLines(source)) {
    const json = text !== undefined ? parseStrictJson(text) : bytes && parseStrictJson(bytes);
    if (json === undefined) {
      yield { line, ok: false, error: error ?? "unreadable line" };
      continue;
    }
    if (!json.ok) {
      yield { line, ok: false, error: describeStrictJsonError(json) };
      continue;
    }
    const result = schema.safeParse(json.value);
    yield result.success
      ? { line, ok: true, value: result.data }
      : { line, ok: false, error: describeIssues(result.error) };
  }
}
