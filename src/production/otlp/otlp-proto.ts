// The protobuf messages of OTLP/HTTP traces (opentelemetry-proto: collector/trace/v1, trace/v1,
// common/v1, resource/v1), written here as protobufjs's JSON descriptor from the field numbers the
// specification publishes, and only the fields ragjudge reads or answers with: protobuf skips
// unknown fields, so a newer exporter's extra fields decode fine.

import protobuf from "protobufjs/light.js";

const keyValue = { key: { type: "string", id: 1 }, value: { type: "AnyValue", id: 2 } };

const root = protobuf.Root.fromJSON({
  nested: {
    otlp: {
      nested: {
        ExportTraceServiceRequest: {
          fields: { resourceSpans: { rule: "repeated", type: "ResourceSpans", id: 1 } },
        },
        ExportTraceServiceResponse: {
          fields: { partialSuccess: { type: "ExportTracePartialSuccess", id: 1 } },
        },
        ExportTracePartialSuccess: {
          fields: {
            rejectedSpans: { type: "int64", id: 1 },
            errorMessage: { type: "string", id: 2 },
          },
        },
        /** google.rpc.Status: the body of an OTLP error answer. */
        Status: {
          fields: { code: { type: "int32", id: 1 }, message: { type: "string", id: 2 } },
        },
        ResourceSpans: {
          fields: {
            resource: { type: "Resource", id: 1 },
            scopeSpans: { rule: "repeated", type: "ScopeSpans", id: 2 },
          },
        },
        Resource: { fields: { attributes: { rule: "repeated", type: "KeyValue", id: 1 } } },
        ScopeSpans: { fields: { spans: { rule: "repeated", type: "Span", id: 2 } } },
        Span: {
          fields: {
            traceId: { type: "bytes", id: 1 },
            spanId: { type: "bytes", id: 2 },
            parentSpanId: { type: "bytes", id: 4 },
            name: { type: "string", id: 5 },
            startTimeUnixNano: { type: "fixed64", id: 7 },
            endTimeUnixNano: { type: "fixed64", id: 8 },
            attributes: { rule: "repeated", type: "KeyValue", id: 9 },
            events: { rule: "repeated", type: "Event", id: 11 },
          },
        },
        Event: {
          fields: {
            timeUnixNano: { type: "fixed64", id: 1 },
            name: { type: "string", id: 2 },
            attributes: { rule: "repeated", type: "KeyValue", id: 3 },
          },
        },
        KeyValue: { fields: keyValue },
        AnyValue: {
          oneofs: {
            value: {
              oneof: [
                "stringValue",
                "boolValue",
                "intValue",
                "doubleValue",
                "arrayValue",
                "kvlistValue",
                "bytesValue",
              ],
            },
          },
          fields: {
            stringValue: { type: "string", id: 1 },
            boolValue: { type: "bool", id: 2 },
            intValue: { type: "int64", id: 3 },
            doubleValue: { type: "double", id: 4 },
            arrayValue: { type: "ArrayValue", id: 5 },
            kvlistValue: { type: "KeyValueList", id: 6 },
            bytesValue: { type: "bytes", id: 7 },
          },
        },
        ArrayValue: { fields: { values: { rule: "repeated", type: "AnyValue", id: 1 } } },
        KeyValueList: { fields: { values: { rule: "repeated", type: "KeyValue", id: 1 } } },
      },
    },
  },
});

const RequestType = root.lookupType("otlp.ExportTraceServiceRequest");
const ResponseType = root.lookupType("otlp.ExportTraceServiceResponse");
const StatusType = root.lookupType("otlp.Status");

/**
 * An ExportTraceServiceRequest as plain objects shaped like OTLP/JSON (lowerCamelCase names), with
 * bytes as Uint8Array and 64-bit integers as decimal strings. Throws on malformed protobuf,
 * including nesting deeper than protobufjs's recursion limit.
 */
export function decodeTraceRequestProto(body: Uint8Array): unknown {
  const message = RequestType.decode(body);
  return RequestType.toObject(message, { longs: String, bytes: Array, oneofs: false });
}

export function encodeTraceResponseProto(partial?: {
  rejectedSpans: number;
  errorMessage: string;
}): Uint8Array {
  return ResponseType.encode(
    ResponseType.fromObject(partial ? { partialSuccess: partial } : {}),
  ).finish();
}

/** google.rpc.Status, code 3 (INVALID_ARGUMENT) or 8 (RESOURCE_EXHAUSTED) or 14 (UNAVAILABLE). */
export function encodeStatusProto(code: number, message: string): Uint8Array {
  return StatusType.encode(StatusType.fromObject({ code, message })).finish();
}

/** Encodes a request (the tests and the fuzz test build protobuf bodies with it). */
export function encodeTraceRequestProto(request: object): Uint8Array {
  return RequestType.encode(RequestType.fromObject(request)).finish();
}
