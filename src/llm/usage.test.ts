import { describe, expect, it } from "vitest";
import type { CallRecord } from "./client.js";
import {
  CallUsageSchema,
  countCall,
  emptyUsageTotals,
  usageByModel,
  usageOfCalls,
} from "./usage.js";

function record(
  prompt: number,
  completion: number,
  latency: number,
  cached = false,
  where: Pick<CallRecord, "role" | "model"> = { role: "generator", model: "m" },
  cachedTokens = 0,
): CallRecord {
  return {
    kind: "chat",
    ...where,
    provider: "http://127.0.0.1/v1",
    cached,
    attempts: cached ? 0 : 1,
    latency_ms: latency,
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      cached_tokens: cachedTokens,
    },
    response_format: "json_object",
    outcome: "ok",
  };
}

describe("usageOfCalls", () => {
  it("sums the tokens spent, requests and latency, a cache hit's tokens kept apart", () => {
    const usage = usageOfCalls([
      record(100, 20, 12.34),
      record(50, 5, 0.07, true, undefined, 30),
      { ...record(1, 1, 3), attempts: 4 },
    ]);
    expect(usage).toEqual({
      calls: 3,
      attempts: 5,
      prompt_tokens: 101,
      completion_tokens: 21,
      cached_tokens: 0,
      cache_hit_tokens: 55,
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
      cached_tokens: 0,
      latency_ms: 0,
    });
  });
});

describe("usageByModel", () => {
  it("keeps each (role, model) pair apart, with its calls and cached tokens", () => {
    const judge = { role: "judge", model: "gpt-4o" } as const;
    const generator = { role: "generator", model: "gpt-4o" } as const;
    const lines = usageByModel([
      record(100, 10, 1, false, judge, 40),
      record(200, 20, 1, false, generator),
      record(50, 5, 1, false, judge, 10),
      record(7, 0, 1, false, { role: undefined, model: "local" }),
    ]);
    expect(lines).toEqual([
      {
        role: "judge",
        model: "gpt-4o",
        calls: 2,
        prompt_tokens: 150,
        cached_tokens: 50,
        completion_tokens: 15,
      },
      {
        role: "generator",
        model: "gpt-4o",
        calls: 1,
        prompt_tokens: 200,
        cached_tokens: 0,
        completion_tokens: 20,
      },
      {
        role: "unnamed",
        model: "local",
        calls: 1,
        prompt_tokens: 7,
        cached_tokens: 0,
        completion_tokens: 0,
      },
    ]);
  });
});

describe("countCall", () => {
  it("counts cached responses, failures and cached prompt tokens; a cache hit spends no tokens", () => {
    const totals = emptyUsageTotals();
    countCall(totals, record(10, 2, 1.5, false, undefined, 4));
    countCall(totals, record(10, 2, 0.5, true));
    countCall(totals, { ...record(0, 0, 1), outcome: "error" });
    expect(totals).toEqual({
      calls: 3,
      cached_calls: 1,
      failed_calls: 1,
      attempts: 2,
      prompt_tokens: 10,
      completion_tokens: 2,
      cached_tokens: 4,
      total_tokens: 12,
      cache_hit_tokens: 12,
      latency_ms: 3,
    });
  });
});
