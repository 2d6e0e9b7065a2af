import { describe, expect, it } from "vitest";
import type { CallRecord } from "./client.js";
import { CallUsageSchema, usageOfCalls } from "./usage.js";

function record(prompt: number, completion: number, latency: number, cached = false): CallRecord {
  return {
    kind: "chat",
    role: "generator",
    model: "m",
    provider: "http://127.0.0.1/v1",
    cached,
    attempts: cached ? 0 : 1,
    latency_ms: latency,
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    },
    response_format: "json_object",
    outcome: "ok",
  };
}

describe("usageOfCalls", () => {
  it("sums every call's tokens, requests and latency, cached calls with their original tokens", () => {
    const usage = usageOfCalls([
      record(100, 20, 12.34),
      record(50, 5, 0.07, true),
      { ...record(1, 1, 3), attempts: 4 },
    ]);
    expect(usage).toEqual({
      calls: 3,
      attempts: 5,
      prompt_tokens: 151,
      completion_tokens: 26,
      latency_ms: 15.4,
    });
    expect(CallUsageSchema.parse(usage)).toEqual(usage);
  });

  it("is all zeros for no calls", () => {
    expect(usageOfCalls([])).toEqual({
      calls: 0,
      attempts: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      latency_ms: 0,
    });
  });
});
