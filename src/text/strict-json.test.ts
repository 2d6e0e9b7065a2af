import { expect, it } from "vitest";
import {
  describeStrictJsonError,
  invalidUtf8Offset,
  MAX_JSON_DEPTH,
  parseStrictJson,
  type StrictJson,
} from "./strict-json.js";

const nested = (depth: number, open = "[", close = "]") =>
  `${open.repeat(depth)}${close.repeat(depth)}`;

function refusal(result: StrictJson) {
  expect(result.ok).toBe(false);
  return result as Extract<StrictJson, { ok: false }>;
}

it("parses ordinary JSON from text or bytes, dropping a BOM", () => {
  expect(parseStrictJson('{"a":[1,"中文",{"b":null}]}')).toEqual({
    ok: true,
    value: { a: [1, "中文", { b: null }] },
  });
  expect(parseStrictJson(Buffer.from('\ufeff{"a":"😀"}'))).toEqual({
    ok: true,
    value: { a: "😀" },
  });
});

it("accepts 64 levels and refuses 65, naming the field where it got too deep", () => {
  expect(parseStrictJson(nested(MAX_JSON_DEPTH)).ok).toBe(true);
  expect(refusal(parseStrictJson(nested(MAX_JSON_DEPTH + 1)))).toMatchObject({
    kind: "invalid",
    message: "nested deeper than 64 levels (arrays and objects)",
  });
  const deep = `{"id":"x","hits":[{"a":1},{"meta":${nested(4000, '{"k":', "}").replace(/\{"k":\}/, '{"k":1}')}}]}`;
  const error = refusal(parseStrictJson(deep));
  expect(error.path).toMatch(/^hits\.1\.meta\.k\.k\.k/);
  expect(error.path).toMatch(/more levels\)$/);
});

it("scans a 100,000-deep line without a stack overflow, brackets in strings aside", () => {
  expect(refusal(parseStrictJson(nested(100_000))).message).toMatch(/deeper than 64/);
  expect(parseStrictJson(JSON.stringify({ text: "[[[[".repeat(1000), q: 'a"]]]]' })).ok).toBe(true);
});

it("names the field holding a NUL or a lone surrogate, in values and keys", () => {
  expect(refusal(parseStrictJson('{"a":{"answer":"x\\u0000y"}}'))).toMatchObject({
    path: "a.answer",
    message: expect.stringMatching(/NUL/),
  });
  expect(refusal(parseStrictJson('{"list":["ok","\\ud800"]}'))).toMatchObject({
    path: "list.1",
    message: expect.stringMatching(/lone surrogate/),
  });
  expect(refusal(parseStrictJson('{"a":{"b\\u0000":1}}'))).toMatchObject({
    path: "a",
    message: expect.stringMatching(/^a key contains a NUL/),
  });
  // A surrogate pair written as escapes is one character, not a lone surrogate.
  expect(parseStrictJson('{"a":"\\ud83d\\ude00"}')).toEqual({ ok: true, value: { a: "😀" } });
});

it("names the field holding invalid UTF-8, and the byte", () => {
  const bytes = Buffer.concat([
    Buffer.from('{"q":[{"text":"ok"},{"text":"ab'),
    Buffer.from([0xc3, 0x28]),
    Buffer.from('"}]}'),
  ]);
  const error = refusal(parseStrictJson(bytes));
  expect(error).toMatchObject({ path: "q.1.text" });
  expect(describeStrictJsonError(error)).toBe(
    `q.1.text: invalid UTF-8 at byte ${bytes.indexOf(0xc3)} (save the text as UTF-8)`,
  );
  expect(describeStrictJsonError(refusal(parseStrictJson(Buffer.from([0xff, 0x7b]))))).toBe(
    "invalid UTF-8 at byte 0 (save the text as UTF-8)",
  );
});

it("finds the first ill-formed UTF-8 sequence as TextDecoder's fatal mode does", () => {
  const cases: [number[], number][] = [
    [[0x61, 0x62], 2],
    [[0xe4, 0xb8, 0xad], 3],
    [[0x61, 0xed, 0xa0, 0x80], 1], // an encoded surrogate
    [[0xc0, 0xaf], 0], // overlong
    [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
    [[0x61, 0xe4, 0xb8], 1], // truncated
  ];
  for (const [bytes, offset] of cases) {
    expect(invalidUtf8Offset(new Uint8Array(bytes))).toBe(offset);
    let valid = true;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
    } catch {
      valid = false;
    }
    expect(valid).toBe(offset === bytes.length);
  }
});

it("says malformed JSON as JSON.parse does", () => {
  const error = refusal(parseStrictJson("{oops"));
  expect(error.kind).toBe("malformed");
  expect(describeStrictJsonError(error)).toMatch(/^malformed JSON: /);
});
