import { describe, expect, it } from "vitest";
import { responseCacheKey } from "./cache.js";

describe("responseCacheKey", () => {
  const base = {
    model: "m",
    messages: [{ role: "user", content: "hi" }],
    params: { temperature: 0, seed: 42, response_format: { type: "json_object" } },
  };
  it("is a sha256 hex that ignores key order", () => {
    const key = responseCacheKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(
      responseCacheKey({
        params: { response_format: { type: "json_object" }, seed: 42, temperature: 0 },
        messages: [{ content: "hi", role: "user" }],
        model: "m",
      }),
    ).toBe(key);
  });
  it("changes with the model, the messages or any parameter", () => {
    const key = responseCacheKey(base);
    expect(responseCacheKey({ ...base, model: "n" })).not.toBe(key);
    expect(responseCacheKey({ ...base, messages: [{ role: "user", content: "hi!" }] })).not.toBe(
      key,
    );
    expect(responseCacheKey({ ...base, params: { ...base.params, seed: 43 } })).not.toBe(key);
    expect(responseCacheKey({ ...base, params: { temperature: 0, seed: 42 } })).not.toBe(key);
  });
});
