import { describe, expect, it } from "vitest";
import { z } from "zod";
import { extractJson, jsonSchemaFor, parseStructured, responseFormatFor } from "./structured.js";

const Schema = z.object({ score: z.number().int().min(1).max(5), reasoning: z.string() });

describe("extractJson", () => {
  it("returns bare JSON unchanged", () => {
    expect(extractJson('{"a":1}')).toBe('{"a":1}');
  });
  it("strips code fences, with or without a language", () => {
    expect(extractJson('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(extractJson('```\n{"a":1}\n```')).toBe('{"a":1}');
  });
  it("strips surrounding prose, even with braces inside strings", () => {
    expect(extractJson('Here you go: {"a":"} tricky \\" {","b":[1,2]} Hope it helps!')).toBe(
      '{"a":"} tricky \\" {","b":[1,2]}',
    );
  });
  it("returns a truncated span whole and nothing when there is no JSON", () => {
    expect(extractJson('Result: {"a": 1, "b":')).toBe('{"a": 1, "b":');
    expect(extractJson("no json here")).toBeUndefined();
  });
});

describe("parseStructured", () => {
  it("validates with zod and strips unknown keys", () => {
    expect(parseStructured('{"score":4,"reasoning":"ok","extra":1}', Schema)).toEqual({
      ok: true,
      value: { score: 4, reasoning: "ok" },
    });
  });
  it("skips a prose brace that is not JSON and finds the answer", () => {
    const text = 'I weigh {accuracy} most.\n{"score": 2, "reasoning": "fabricated"}';
    expect(parseStructured(text, Schema)).toMatchObject({ ok: true, value: { score: 2 } });
  });
  it("reports invalid JSON and schema violations by field", () => {
    const bad = parseStructured('{"score": 4,', Schema);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/invalid JSON/);
    const wrong = parseStructured('{"score": 9, "reasoning": 3}', Schema);
    expect(!wrong.ok && wrong.error).toMatch(/score/);
    expect(!wrong.ok && wrong.error).toMatch(/reasoning/);
    expect(parseStructured("nothing", Schema)).toEqual({
      ok: false,
      error: "the reply contains no JSON object",
    });
  });
  it("refuses a reply nested deeper than 64 levels, even in a key the schema drops", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const outcome = parseStructured(`{"score":4,"reasoning":"ok","extra":${deep}}`, Schema);
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toMatch(
      /^unusable JSON: extra\.0\.0.*nested deeper than 64 levels/,
    );
    // 64 levels are still an answer.
    const edge = "[".repeat(63) + "]".repeat(63);
    expect(parseStructured(`{"score":4,"reasoning":"ok","extra":${edge}}`, Schema).ok).toBe(true);
  });
  it("refuses a NUL in a string, which could not be stored", () => {
    const outcome = parseStructured('{"score":4,"reasoning":"a\\u0000b"}', Schema);
    expect(!outcome.ok && outcome.error).toMatch(/reasoning: contains a NUL character/);
  });
});

describe("responseFormatFor", () => {
  it("maps each mode to its response_format", () => {
    expect(responseFormatFor("json_object", Schema, "x")).toEqual({ type: "json_object" });
    expect(responseFormatFor("prompt", Schema, "x")).toBeUndefined();
    const format = responseFormatFor("json_schema", Schema, "reference");
    expect(format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "reference", strict: true },
    });
    expect(jsonSchemaFor(Schema)).toBe(jsonSchemaFor(Schema));
    expect(jsonSchemaFor(Schema)).toMatchObject({
      type: "object",
      required: ["score", "reasoning"],
      additionalProperties: false,
    });
  });
});
