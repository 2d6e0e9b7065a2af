// OTLP/HTTP trace bodies, protobuf or JSON, read into plain spans under limits that name
// themselves when hit (issue 24 §1.1). Both encodings go through one reader of the same object
// shape, so they cannot disagree about what a span holds.

import { gunzip } from "node:zlib";
import { promisify } from "node:util";
import { decodeTraceRequestProto } from "./otlp-proto.js";

const gunzipAsync = promisify(gunzip);

/** An attribute value as OTLP's AnyValue, read into JSON-like data. */
export type AttributeValue =
  string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type Attributes = Record<string, AttributeValue>;

export interface OtlpSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** Unix milliseconds (fractional). */
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: { name: string; attributes: Attributes }[];
  /** The resource's attributes (service.name and the rest). */
  resource: Attributes;
}

export const OTLP_LIMITS = {
  /** The body as sent (gzip or not). */
  bodyBytes: 4 * 1024 * 1024,
  /** The body after gzip. */
  inflatedBytes: 32 * 1024 * 1024,
  spansPerRequest: 10_000,
  attributesPerSpan: 512,
  eventsPerSpan: 128,
  /** Characters in one attribute's string value (a retrieved document's content fits). */
  attributeChars: 100_000,
  /** Nesting of array and key-value-list attribute values. */
  attributeDepth: 8,
} as const;
export type OtlpLimits = { [K in keyof typeof OTLP_LIMITS]: number };

/** A body ragjudge will not read; `limit` names the limit it broke, if one. */
export class OtlpInputError extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly limit?: keyof typeof OTLP_LIMITS,
  ) {
    super(`${path}: ${message}`);
    this.name = "OtlpInputError";
  }
  static isInstance(error: unknown): error is OtlpInputError {
    return error instanceof Error && error.name === "OtlpInputError";
  }
}

export type OtlpEncoding = "protobuf" | "json";

/** A span that was read but cannot be used; counted as rejected in the partial-success answer. */
export interface RejectedSpan {
  path: string;
  message: string;
}

export interface DecodedTraces {
  spans: OtlpSpan[];
  rejected: RejectedSpan[];
}

/** Inflates a gzip body, refusing to grow past `limits.inflatedBytes` (a gzip bomb stops there). */
export async function inflateBody(body: Uint8Array, limits: OtlpLimits): Promise<Uint8Array> {
  try {
    return await gunzipAsync(body, { maxOutputLength: limits.inflatedBytes });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new OtlpInputError(
        "body",
        `inflates past ${limits.inflatedBytes} bytes (limit inflatedBytes)`,
        "inflatedBytes",
      );
    }
    throw new OtlpInputError("body", "is not valid gzip");
  }
}

/** Reads an ExportTraceServiceRequest body. */
export function decodeTraces(
  body: Uint8Array,
  encoding: OtlpEncoding,
  limits: OtlpLimits = OTLP_LIMITS,
): DecodedTraces {
  let request: unknown;
  if (encoding === "protobuf") {
    try {
      request = decodeTraceRequestProto(body);
    } catch (error) {
      const depth = error instanceof Error && /depth/i.test(error.message);
      throw new OtlpInputError(
        "body",
        depth
          ? `nests deeper than the protobuf reader allows (limit attributeDepth)`
          : "is not a valid ExportTraceServiceRequest in protobuf",
        depth ? "attributeDepth" : undefined,
      );
    }
  } else {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      throw new OtlpInputError("body", "is not valid UTF-8");
    }
    try {
      request = JSON.parse(text);
    } catch (error) {
      throw new OtlpInputError("body", `is not valid JSON (${(error as Error).message})`);
    }
  }
  return readRequest(request, encoding, limits);
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function list(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new OtlpInputError(path, "must be an array");
  return value;
}

function readRequest(request: unknown, encoding: OtlpEncoding, limits: OtlpLimits): DecodedTraces {
  if (!isObj(request))
    throw new OtlpInputError("body", "must be an ExportTraceServiceRequest object");
  const spans: OtlpSpan[] = [];
  const rejected: RejectedSpan[] = [];
  let count = 0;
  list(request.resourceSpans, "resourceSpans").forEach((rs, r) => {
    const rsPath = `resourceSpans[${r}]`;
    if (!isObj(rs)) throw new OtlpInputError(rsPath, "must be an object");
    const resource = isObj(rs.resource)
      ? readAttributes(rs.resource.attributes, `${rsPath}.resource.attributes`, limits)
      : {};
    list(rs.scopeSpans, `${rsPath}.scopeSpans`).forEach((ss, s) => {
      const ssPath = `${rsPath}.scopeSpans[${s}]`;
      if (!isObj(ss)) throw new OtlpInputError(ssPath, "must be an object");
      list(ss.spans, `${ssPath}.spans`).forEach((raw, i) => {
        const path = `${ssPath}.spans[${i}]`;
        count += 1;
        if (count > limits.spansPerRequest) {
          throw new OtlpInputError(
            path,
            `more than ${limits.spansPerRequest} spans in one request (limit spansPerRequest)`,
            "spansPerRequest",
          );
        }
        const span = readSpan(raw, path, encoding, resource, limits);
        if ("message" in span) rejected.push(span);
        else spans.push(span);
      });
    });
  });
  return { spans, rejected };
}

/** A span, or why it cannot be used (bad ids: the rest of the request still counts). */
function readSpan(
  raw: unknown,
  path: string,
  encoding: OtlpEncoding,
  resource: Attributes,
  limits: OtlpLimits,
): OtlpSpan | RejectedSpan {
  if (!isObj(raw)) throw new OtlpInputError(path, "must be an object");
  const traceId = readId(raw.traceId, encoding, 16);
  const spanId = readId(raw.spanId, encoding, 8);
  if (!traceId) return { path: `${path}.traceId`, message: "must be 16 bytes, not all zero" };
  if (!spanId) return { path: `${path}.spanId`, message: "must be 8 bytes, not all zero" };
  const parent = readId(raw.parentSpanId, encoding, 8);
  const attributes = readAttributes(raw.attributes, `${path}.attributes`, limits);
  const rawEvents = list(raw.events, `${path}.events`);
  if (rawEvents.length > limits.eventsPerSpan) {
    throw new OtlpInputError(
      `${path}.events`,
      `more than ${limits.eventsPerSpan} events (limit eventsPerSpan)`,
      "eventsPerSpan",
    );
  }
  const events = rawEvents.map((event, e) => {
    const eventPath = `${path}.events[${e}]`;
    if (!isObj(event)) throw new OtlpInputError(eventPath, "must be an object");
    return {
      name:
        typeof event.name === "string" ? noNul(event.name, `${eventPath}.name`).slice(0, 256) : "",
      attributes: readAttributes(event.attributes, `${eventPath}.attributes`, limits),
    };
  });
  return {
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name: typeof raw.name === "string" ? noNul(raw.name, `${path}.name`).slice(0, 256) : "",
    startMs: nanosToMs(raw.startTimeUnixNano),
    endMs: nanosToMs(raw.endTimeUnixNano),
    attributes,
    events,
    resource,
  };
}

/**
 * The text, unless it holds a NUL character, which PostgreSQL stores in no text or jsonb value:
 * accepted, it would fail every write of its trace (a 503 the exporter retries in vain). OTLP/JSON
 * bodies never get here with one (strict-json refuses it); protobuf strings may carry it.
 */
function noNul(text: string, path: string): string {
  if (text.includes("\u0000")) throw new OtlpInputError(path, "contains a NUL character");
  return text;
}

/** A trace or span id as lowercase hex, or undefined when absent, malformed or all zero. */
function readId(value: unknown, encoding: OtlpEncoding, bytes: number): string | undefined {
  let hex: string | undefined;
  if (encoding === "protobuf" && Array.isArray(value)) {
    if (value.length === bytes) hex = Buffer.from(value as number[]).toString("hex");
  } else if (
    typeof value === "string" &&
    value.length === bytes * 2 &&
    /^[0-9a-f]+$/i.test(value)
  ) {
    // OTLP/JSON writes ids as hex, not base64 (the specification's one exception).
    hex = value.toLowerCase();
  }
  return hex && /[^0]/.test(hex) ? hex : undefined;
}

/** Unix nanoseconds (a decimal string or a number) as milliseconds; 0 when absent. */
function nanosToMs(value: unknown): number {
  if (typeof value === "number" && Number.isFinite(value)) return value / 1e6;
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) {
    const nanos = BigInt(value);
    return Number(nanos / 1000n) / 1000;
  }
  return 0;
}

function readAttributes(raw: unknown, path: string, limits: OtlpLimits, depth = 0): Attributes {
  const items = list(raw, path);
  if (items.length > limits.attributesPerSpan) {
    throw new OtlpInputError(
      path,
      `more than ${limits.attributesPerSpan} attributes (limit attributesPerSpan)`,
      "attributesPerSpan",
    );
  }
  const out: Attributes = {};
  items.forEach((item, i) => {
    const itemPath = `${path}[${i}]`;
    if (!isObj(item) || typeof item.key !== "string") {
      throw new OtlpInputError(itemPath, "must be an object with a string key");
    }
    if (item.key.length > 256) {
      throw new OtlpInputError(`${itemPath}.key`, "is longer than 256 characters");
    }
    noNul(item.key, `${itemPath}.key`);
    out[item.key] = readValue(item.value, `${itemPath}.value`, limits, depth);
  });
  return out;
}

function readValue(raw: unknown, path: string, limits: OtlpLimits, depth: number): AttributeValue {
  if (depth >= limits.attributeDepth) {
    throw new OtlpInputError(
      path,
      `nests deeper than ${limits.attributeDepth} levels (limit attributeDepth)`,
      "attributeDepth",
    );
  }
  if (raw === undefined || raw === null) return null;
  if (!isObj(raw)) throw new OtlpInputError(path, "must be an AnyValue object");
  if (typeof raw.stringValue === "string") {
    if (raw.stringValue.length > limits.attributeChars) {
      throw new OtlpInputError(
        path,
        `is longer than ${limits.attributeChars} characters (limit attributeChars)`,
        "attributeChars",
      );
    }
    return noNul(raw.stringValue, path);
  }
  if (typeof raw.boolValue === "boolean") return raw.boolValue;
  if (typeof raw.intValue === "string" || typeof raw.intValue === "number") {
    const value = Number(raw.intValue);
    if (!Number.isFinite(value)) throw new OtlpInputError(path, "intValue is not an integer");
    return value;
  }
  if (typeof raw.doubleValue === "number") return raw.doubleValue;
  // OTLP/JSON may write NaN and infinities as strings; they carry nothing ragjudge reads.
  if (typeof raw.doubleValue === "string")
    return Number.isFinite(Number(raw.doubleValue)) ? Number(raw.doubleValue) : null;
  if (isObj(raw.arrayValue)) {
    const values = list(raw.arrayValue.values, `${path}.arrayValue.values`);
    if (values.length > limits.attributesPerSpan) {
      throw new OtlpInputError(
        `${path}.arrayValue.values`,
        `more than ${limits.attributesPerSpan} values (limit attributesPerSpan)`,
        "attributesPerSpan",
      );
    }
    return values.map((v, i) => readValue(v, `${path}.arrayValue.values[${i}]`, limits, depth + 1));
  }
  if (isObj(raw.kvlistValue)) {
    return readAttributes(raw.kvlistValue.values, `${path}.kvlistValue.values`, limits, depth + 1);
  }
  // bytesValue and an empty AnyValue: nothing ragjudge reads.
  return null;
}
