import type { Context } from "hono";
import { requireAccess } from "../access.js";
import { z } from "zod";
import {
  decodeTraces,
  encodeStatusProto,
  encodeTraceResponseProto,
  inflateBody,
  OTLP_LIMITS,
  type OtlpEncoding,
  OtlpInputError,
  type TraceAssembler,
  TraceBacklogError,
} from "../../production/index.js";
import { countRejectedTraces, listRejectedTraces } from "../../store/index.js";
import { errorLogSummary } from "../error-log.js";
import { type App, limitBody, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import { RejectedTraceListSchema } from "../schemas/index.js";
import { pageLimit } from "./params.js";

// OTLP over HTTP (issue 24 §1.1): `POST /v1/traces` as the OpenTelemetry specification defines it,
// protobuf or JSON, gzip or not, so any exporter pointed at ragjudge sends its traces. It sits
// outside /api/v1 because exporters append /v1/traces to their endpoint; being protobuf as often
// as JSON, it is documented in docs/production.md rather than in the OpenAPI document. The traces
// that could not become answers are listed under /api/v1 like everything else.

const REJECTED_PAGE = { default: 50, max: 500 } as const;

export const traceApi = {
  rejected: defineRoute({
    method: "get",
    path: "/api/v1/traces/rejected",
    tags: ["production"],
    summary:
      "OpenTelemetry traces that could not become answer records (no retrieval, no answer), newest first",
    query: z.object({ limit: pageLimit(REJECTED_PAGE) }),
    responses: {
      200: {
        description: "How many, and the latest with their reasons",
        schema: RejectedTraceListSchema,
      },
    },
  }),
};

/** google.rpc.Status codes the OTLP specification uses in error answers. */
const STATUS = { invalidArgument: 3, resourceExhausted: 8, unavailable: 14 } as const;

function encodingOf(contentType: string | undefined): OtlpEncoding | undefined {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-protobuf" || type === "application/protobuf") return "protobuf";
  if (type === "application/json") return "json";
  return undefined;
}

/** An OTLP answer in the request's own encoding, as the specification asks. */
function otlpReply(
  c: Context,
  encoding: OtlpEncoding,
  status: 200 | 400 | 413 | 429 | 503,
  body: {
    partial?: { rejectedSpans: number; errorMessage: string };
    code?: number;
    message?: string;
    limit?: string;
    path?: string;
  },
  retryAfterSeconds?: number,
) {
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  if (encoding === "protobuf") {
    headers["content-type"] = "application/x-protobuf";
    const bytes =
      status === 200
        ? encodeTraceResponseProto(body.partial)
        : encodeStatusProto(body.code ?? STATUS.invalidArgument, body.message ?? "");
    return c.body(bytes as Uint8Array<ArrayBuffer>, status, headers);
  }
  if (status === 200) {
    return c.json(body.partial ? { partialSuccess: body.partial } : {}, 200, headers);
  }
  const error =
    status === 400
      ? "invalid_otlp"
      : status === 413
        ? "payload_too_large"
        : status === 429
          ? "busy"
          : "unavailable";
  return c.json(
    {
      code: body.code,
      error,
      message: body.message,
      ...(body.limit ? { limit: body.limit } : {}),
      ...(body.path ? { issues: [{ path: body.path, message: body.message }] } : {}),
    },
    status,
    headers,
  );
}

export function traceRoutes(app: App, deps: RouteDeps, traces: TraceAssembler) {
  const { db } = deps;
  // Outside the route table (OTLP's own path), with the table's access check: sending is writing.
  app.post("/v1/traces", requireAccess("write"), limitBody(OTLP_LIMITS.bodyBytes), async (c) => {
    const encoding = encodingOf(c.req.header("content-type"));
    if (!encoding) {
      return c.json(
        {
          error: "unsupported_media_type",
          message:
            "Send OTLP traces as `content-type: application/x-protobuf` or `application/json`.",
        },
        415,
      );
    }
    const contentEncoding = (c.req.header("content-encoding") ?? "identity").trim().toLowerCase();
    if (contentEncoding !== "gzip" && contentEncoding !== "identity") {
      return c.json(
        {
          error: "unsupported_media_type",
          message: "Content-Encoding may be gzip or none.",
        },
        415,
      );
    }
    let decoded;
    try {
      const raw = new Uint8Array(await c.req.arrayBuffer());
      const body = contentEncoding === "gzip" ? await inflateBody(raw, OTLP_LIMITS) : raw;
      decoded = decodeTraces(body, encoding, OTLP_LIMITS);
    } catch (error) {
      if (!OtlpInputError.isInstance(error)) throw error;
      return otlpReply(c, encoding, 400, {
        code: STATUS.invalidArgument,
        message: error.message,
        path: error.path,
        ...(error.limit ? { limit: error.limit } : {}),
      });
    }
    try {
      const result = await traces.add(c.get("workspace").id, decoded.spans);
      const rejectedSpans = decoded.rejected.length + result.rejectedSpans;
      if (rejectedSpans === 0) return otlpReply(c, encoding, 200, {});
      const reasons = [
        ...decoded.rejected.slice(0, 5).map((r) => `${r.path}: ${r.message}`),
        ...result.reasons,
      ];
      return otlpReply(c, encoding, 200, {
        partial: { rejectedSpans, errorMessage: reasons.join("; ") },
      });
    } catch (error) {
      if (TraceBacklogError.isInstance(error)) {
        return otlpReply(
          c,
          encoding,
          429,
          {
            code: STATUS.resourceExhausted,
            message: "ragjudge is behind: too many traces wait to be assembled. Retry later.",
          },
          error.retryAfterSeconds,
        );
      }
      // The store failed (the database unreachable, most often): the spans stay pending and the
      // exporter's retry, which the specification makes it send after Retry-After, adds nothing twice.
      console.error(`[ragjudge] POST /v1/traces could not store: ${errorLogSummary(error)}`);
      return otlpReply(
        c,
        encoding,
        503,
        {
          code: STATUS.unavailable,
          message: "ragjudge could not store the traces just now. Retry later.",
        },
        2,
      );
    }
  });

  mountRoute(app, deps, traceApi.rejected, async (c, { query }) => {
    const workspaceId = c.get("workspace").id;
    const [total, rows] = await Promise.all([
      countRejectedTraces(db, workspaceId),
      listRejectedTraces(db, workspaceId, query.limit ?? REJECTED_PAGE.default),
    ]);
    return c.json(
      {
        total,
        items: rows.map((row) => ({
          trace_id: row.trace_id,
          service: row.service,
          reason: row.reason,
          span_count: row.span_count,
          received_at: row.received_at.toISOString(),
        })),
      },
      200,
    );
  });
}
