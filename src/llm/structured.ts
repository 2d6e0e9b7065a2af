import { z } from "zod";
import { describeStrictJsonError, parseStrictJson } from "../text/index.js";
import type {
  CallOptions,
  CallRecord,
  ChatMessage,
  ChatRequest,
  LlmClient,
  ResponseFormat,
} from "./client.js";
import type { StructuredOutputMode } from "./config.js";

const FENCE = /```[ \t]*[A-Za-z0-9]*[ \t]*\r?\n?([\s\S]*?)```/g;
const MAX_CANDIDATES = 16;

/**
 * Spans of a model's reply that may be the JSON answer, best first: the contents of fenced code
 * blocks, then every balanced {...} or [...] span in order (which drops prose before and after).
 * A truncated, unbalanced span is yielded whole so the parser can say where it broke.
 */
export function jsonCandidates(text: string): string[] {
  const out: string[] = [];
  // Most replies (json_object, json_schema) have no fence: skip the regex for them.
  if (text.includes("```")) {
    for (const match of text.matchAll(FENCE)) {
      const inner = match[1]?.trim() ?? "";
      if (inner.startsWith("{") || inner.startsWith("[")) {
        out.push(balancedSpan(inner, 0) ?? inner);
      }
    }
  }
  for (let i = 0; i < text.length && out.length < MAX_CANDIDATES; i++) {
    const ch = text.charCodeAt(i);
    if (ch !== 123 /* { */ && ch !== 91 /* [ */) continue;
    const span = balancedSpan(text, i);
    if (span === undefined) {
      out.push(text.slice(i).trim());
      break;
    }
    out.push(span);
    i += span.length - 1;
  }
  return out;
}

/** The most likely JSON text in a reply; undefined when there is none. */
export function extractJson(text: string): string | undefined {
  return jsonCandidates(text)[0];
}

/** The span from `start` to its matching close, aware of strings and escapes. */
function balancedSpan(text: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
      continue;
    }
    if (ch === 34) inString = true;
    else if (ch === 123 /* { */ || ch === 91 /* [ */) depth++;
    else if (ch === 125 /* } */ || ch === 93 /* ] */) {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Steps 1 and 2 of every structured call: strip fences and prose, parse, validate with zod.
 * The first candidate that parses and validates wins; otherwise the first problem is reported.
 * The parse is the strict one every input gets (text/strict-json.ts): a reply nested deeper than
 * 64 levels is refused by name, not handed on to code that recurses (JSON.stringify, storage).
 */
export function parseStructured<T>(text: string, schema: z.ZodType<T>): ParseOutcome<T> {
  const candidates = jsonCandidates(text);
  if (candidates.length === 0) return { ok: false, error: "the reply contains no JSON object" };
  let firstError: string | undefined;
  for (const candidate of candidates) {
    const parsed = parseStrictJson(candidate);
    if (!parsed.ok) {
      firstError ??=
        parsed.kind === "malformed"
          ? `invalid JSON: ${parsed.message}`
          : `unusable JSON: ${describeStrictJsonError(parsed)}`;
      continue;
    }
    const result = schema.safeParse(parsed.value);
    if (result.success) return { ok: true, value: result.data };
    firstError ??= `the JSON does not match the required format:\n${z.prettifyError(result.error)}`;
  }
  return { ok: false, error: firstError ?? "the reply contains no JSON object" };
}

const jsonSchemaCache = new WeakMap<z.ZodType, Record<string, unknown>>();

/** The JSON Schema sent in json_schema mode, computed once per zod schema. */
export function jsonSchemaFor(schema: z.ZodType): Record<string, unknown> {
  let cached = jsonSchemaCache.get(schema);
  if (!cached) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
    cached = rest;
    jsonSchemaCache.set(schema, cached);
  }
  return cached;
}

const JSON_OBJECT_FORMAT: ResponseFormat = Object.freeze({ type: "json_object" });
const jsonSchemaFormats = new WeakMap<z.ZodType, Map<string, ResponseFormat>>();

/**
 * The response_format for a mode. The objects are built once per schema and name and shared by
 * every call (frozen: nothing downstream may change them).
 */
export function responseFormatFor(
  mode: StructuredOutputMode,
  schema: z.ZodType,
  name: string,
): ResponseFormat | undefined {
  switch (mode) {
    case "json_schema": {
      let byName = jsonSchemaFormats.get(schema);
      if (!byName) {
        byName = new Map();
        jsonSchemaFormats.set(schema, byName);
      }
      let format = byName.get(name);
      if (!format) {
        format = Object.freeze({
          type: "json_schema",
          json_schema: Object.freeze({ name, schema: jsonSchemaFor(schema), strict: true }),
        });
        if (byName.size < 64) byName.set(name, format);
      }
      return format;
    }
    case "json_object":
      return JSON_OBJECT_FORMAT;
    case "prompt":
      return undefined;
  }
}

/** The re-ask, sent once after an unusable reply. Kept as data like the judges' prompts. */
export const REPAIR_PROMPT =
  "Your previous reply could not be used: {error}\n" +
  "Reply again with only the corrected JSON object, no prose and no code fences.";

export interface GenerateObjectRequest<T> extends CallOptions {
  client: LlmClient;
  messages: readonly ChatMessage[];
  schema: z.ZodType<T>;
  /** Names the schema in json_schema mode; letters, digits, _ and - only. */
  schemaName: string;
  /** Overrides the client's configured mode. */
  mode?: StructuredOutputMode;
}

export type GenerateObjectResult<T> =
  | {
      ok: true;
      value: T;
      /** The reply the value came from. */
      raw: string;
      /** Every call made: one, or two when the first reply had to be re-asked. */
      calls: CallRecord[];
    }
  | {
      ok: false;
      /** Why the last reply was rejected. */
      error: string;
      /** Every reply received, kept for inspection. */
      raw: string[];
      calls: CallRecord[];
    };

/**
 * Asks for a JSON value matching `schema`: 1. strip code fences and prose, 2. parse and validate,
 * 3. on failure re-ask once with the validation error. A second failure is returned (not thrown)
 * with the raw replies so the caller can record a judge_error. Transport failures throw LlmError.
 */
export async function generateObject<T>(
  request: GenerateObjectRequest<T>,
): Promise<GenerateObjectResult<T>> {
  const { client, messages, schema } = request;
  const responseFormat = responseFormatFor(
    request.mode ?? client.structuredOutput,
    schema,
    request.schemaName,
  );
  const first = await client.chat(chatRequest(request, messages, responseFormat));
  const firstParse = parseStructured(first.content, schema);
  if (firstParse.ok) {
    return { ok: true, value: firstParse.value, raw: first.content, calls: [first.call] };
  }
  const repair: ChatMessage[] = [
    ...messages,
    { role: "assistant", content: first.content },
    { role: "user", content: REPAIR_PROMPT.replace("{error}", firstParse.error) },
  ];
  const second = await client.chat(chatRequest(request, repair, responseFormat));
  const secondParse = parseStructured(second.content, schema);
  const calls = [first.call, second.call];
  if (secondParse.ok) return { ok: true, value: secondParse.value, raw: second.content, calls };
  return { ok: false, error: secondParse.error, raw: [first.content, second.content], calls };
}

/**
 * The call options of a request, copied field by field: object rest (`{ client, ...options }`) is a
 * slow runtime call in V8, and this runs once per structured call.
 */
function chatRequest(
  options: CallOptions,
  messages: readonly ChatMessage[],
  responseFormat: ResponseFormat | undefined,
): ChatRequest {
  // Every CallOptions key, so that a new option cannot be dropped here unnoticed.
  const request: { [K in keyof Required<CallOptions>]: CallOptions[K] } & ChatRequest = {
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    noCache: options.noCache,
    temperature: options.temperature,
    seed: options.seed,
    maxTokens: options.maxTokens,
    messages,
    responseFormat,
  };
  return request;
}
