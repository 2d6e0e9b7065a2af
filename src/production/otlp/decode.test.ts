import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeTraces, inflateBody, OTLP_LIMITS, OtlpInputError } from "./decode.js";
import { encodeTraceRequestProto } from "./otlp-proto.js";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const SPAN = "b7ad6b7169203331";
const PARENT = "00f067aa0ba902b7";

/** One request in OTLP/JSON's shape; protobuf takes the same object with bytes for ids. */
function request(span: Record<string, unknown>) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "support-bot" } }] },
        scopeSpans: [{ spans: [span] }],
      },
    ],
  };
}

const ATTRIBUTES = [
  { key: "s", value: { stringValue: "text" } },
  { key: "i", value: { intValue: "812" } },
  { key: "d", value: { doubleValue: 0.5 } },
  { key: "b", value: { boolValue: true } },
  { key: "a", value: { arrayValue: { values: [{ stringValue: "x" }, { intValue: "2" }] } } },
  { key: "kv", value: { kvlistValue: { values: [{ key: "k", value: { stringValue: "v" } }] } } },
];

/** A protobuf field of wire type 2 (length-delimited): tag, length, bytes. */
function field(number: number, bytes: Uint8Array): Uint8Array {
  const length: number[] = [];
  let n = bytes.length;
  while (n > 0x7f) {
    length.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  length.push(n);
  return Buffer.concat([Buffer.from([(number << 3) | 2, ...length]), bytes]);
}

/** A request whose one attribute nests `levels` array values deep. */
function deepProtobuf(levels: number): Uint8Array {
  let value = field(1, Buffer.from("x")); // AnyValue.string_value
  for (let i = 0; i < levels; i++) value = field(5, field(1, value)); // array_value.values
  const attribute = Buffer.concat([field(1, Buffer.from("k")), field(2, value)]);
  const span = Buffer.concat([
    field(1, Buffer.from(TRACE, "hex")),
    field(2, Buffer.from(SPAN, "hex")),
    field(9, attribute),
  ]);
  return field(1, field(2, field(2, span)));
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function limitOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (OtlpInputError.isInstance(error)) return error.limit ?? error.message;
    throw error;
  }
  return undefined;
}

describe("decodeTraces", () => {
  it("reads the same span from JSON and from protobuf", () => {
    const fromJson = decodeTraces(
      json(
        request({
          traceId: TRACE,
          spanId: SPAN,
          parentSpanId: PARENT,
          name: "retrieve",
          startTimeUnixNano: "1700000000000000000",
          endTimeUnixNano: "1700000000250000000",
          attributes: ATTRIBUTES,
          events: [
            { name: "gen_ai.choice", attributes: [{ key: "index", value: { intValue: 0 } }] },
          ],
        }),
      ),
      "json",
    );
    const fromProto = decodeTraces(
      encodeTraceRequestProto(
        request({
          traceId: Buffer.from(TRACE, "hex"),
          spanId: Buffer.from(SPAN, "hex"),
          parentSpanId: Buffer.from(PARENT, "hex"),
          name: "retrieve",
          startTimeUnixNano: "1700000000000000000",
          endTimeUnixNano: "1700000000250000000",
          attributes: ATTRIBUTES,
          events: [
            { name: "gen_ai.choice", attributes: [{ key: "index", value: { intValue: 0 } }] },
          ],
        }),
      ),
      "protobuf",
    );
    expect(fromJson).toEqual(fromProto);
    expect(fromJson.spans[0]).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      parentSpanId: PARENT,
      name: "retrieve",
      startMs: 1_700_000_000_000,
      endMs: 1_700_000_000_250,
      attributes: { s: "text", i: 812, d: 0.5, b: true, a: ["x", 2], kv: { k: "v" } },
      events: [{ name: "gen_ai.choice", attributes: { index: 0 } }],
      resource: { "service.name": "support-bot" },
    });
  });

  it("refuses a NUL character in a protobuf string, naming where (no database stores it)", () => {
    const span = (patch: Record<string, unknown>) =>
      encodeTraceRequestProto(
        request({
          traceId: Buffer.from(TRACE, "hex"),
          spanId: Buffer.from(SPAN, "hex"),
          name: "retrieve",
          attributes: [{ key: "s", value: { stringValue: "text" } }],
          ...patch,
        }),
      );
    const refusal = (body: Uint8Array) => {
      try {
        decodeTraces(body, "protobuf");
      } catch (error) {
        return OtlpInputError.isInstance(error) ? error.path : `not OtlpInputError: ${error}`;
      }
      return "accepted";
    };
    const base = "resourceSpans[0].scopeSpans[0].spans[0]";
    expect(refusal(span({ attributes: [{ key: "s", value: { stringValue: "a\u0000b" } }] }))).toBe(
      `${base}.attributes[0].value`,
    );
    expect(refusal(span({ attributes: [{ key: "k\u0000", value: { stringValue: "v" } }] }))).toBe(
      `${base}.attributes[0].key`,
    );
    expect(refusal(span({ name: "re\u0000trieve" }))).toBe(`${base}.name`);
    expect(refusal(span({}))).toBe("accepted");
  });

  it("sets aside a span with a missing or all-zero id and keeps the rest", () => {
    const result = decodeTraces(
      json({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  { traceId: "0".repeat(32), spanId: SPAN },
                  { traceId: TRACE, spanId: "xyz" },
                  { traceId: TRACE, spanId: SPAN },
                ],
              },
            ],
          },
        ],
      }),
      "json",
    );
    expect(result.spans.map((s) => s.spanId)).toEqual([SPAN]);
    expect(result.rejected).toEqual([
      { path: "resourceSpans[0].scopeSpans[0].spans[0].traceId", message: expect.any(String) },
      { path: "resourceSpans[0].scopeSpans[0].spans[1].spanId", message: expect.any(String) },
    ]);
  });

  it("names the limit a body breaks", () => {
    const limits = { ...OTLP_LIMITS, spansPerRequest: 2, attributeChars: 20 };
    const span = { traceId: TRACE, spanId: SPAN };
    const spans = (n: number) =>
      json({ resourceSpans: [{ scopeSpans: [{ spans: Array(n).fill(span) }] }] });
    expect(limitOf(() => decodeTraces(spans(3), "json", limits))).toBe("spansPerRequest");
    const long = request({
      ...span,
      attributes: [{ key: "k", value: { stringValue: "x".repeat(21) } }],
    });
    expect(limitOf(() => decodeTraces(json(long), "json", limits))).toBe("attributeChars");
    const many = request({ ...span, attributes: ATTRIBUTES });
    expect(
      limitOf(() => decodeTraces(json(many), "json", { ...OTLP_LIMITS, attributesPerSpan: 3 })),
    ).toBe("attributesPerSpan");
    let value: unknown = { stringValue: "x" };
    for (let i = 0; i < OTLP_LIMITS.attributeDepth; i++)
      value = { arrayValue: { values: [value] } };
    const deep = request({ ...span, attributes: [{ key: "k", value }] });
    expect(limitOf(() => decodeTraces(json(deep), "json"))).toBe("attributeDepth");
    // protobufjs stops at its own recursion limit (100) before our walker sees the value; its
    // encoder refuses such nesting too, so the bytes are written by hand.
    expect(limitOf(() => decodeTraces(deepProtobuf(300), "protobuf"))).toBe("attributeDepth");
  });

  it("names what is wrong with a body that is not OTLP", () => {
    expect(limitOf(() => decodeTraces(json([1]), "json"))).toMatch(/^body: must be/);
    expect(limitOf(() => decodeTraces(new Uint8Array([0xff, 0xfe]), "json"))).toMatch(/UTF-8/);
    expect(limitOf(() => decodeTraces(new Uint8Array([0x0a, 0xff]), "protobuf"))).toMatch(
      /not a valid ExportTraceServiceRequest/,
    );
    expect(limitOf(() => decodeTraces(json({ resourceSpans: {} }), "json"))).toBe(
      "resourceSpans: must be an array",
    );
  });

  it("inflates gzip, and stops a gzip bomb at the inflated limit", async () => {
    const body = json(request({ traceId: TRACE, spanId: SPAN }));
    expect(await inflateBody(gzipSync(body), OTLP_LIMITS)).toEqual(Buffer.from(body));
    const bomb = gzipSync(Buffer.alloc(1024 * 1024));
    await expect(inflateBody(bomb, { ...OTLP_LIMITS, inflatedBytes: 1024 })).rejects.toMatchObject({
      limit: "inflatedBytes",
    });
    await expect(inflateBody(new Uint8Array([1, 2, 3]), OTLP_LIMITS)).rejects.toThrow(/gzip/);
  });
});
