import { describe, expect, it } from "vitest";
import {
  costOfUsage,
  costTotalOf,
  DEFAULT_PRICES,
  formatCost,
  formatUsd,
  PRICES_AS_OF,
  priceOf,
  PriceTableSchema,
  priceTableWith,
  pricedUsage,
} from "./prices.js";

const tokens = (model: string, prompt: number, cached: number, completion: number) => ({
  model,
  prompt_tokens: prompt,
  cached_tokens: cached,
  completion_tokens: completion,
});

describe("costOfUsage", () => {
  it("prices input and output per million tokens", () => {
    // gpt-4o: $2.50 in, $10 out per million.
    expect(costOfUsage(tokens("gpt-4o", 1_000_000, 0, 100_000), DEFAULT_PRICES)).toBeCloseTo(
      2.5 + 1,
      12,
    );
  });

  it("charges cached prompt tokens at the cached-input price, out of the prompt tokens", () => {
    // gpt-4.1-mini: $0.40 in, $0.10 cached, $1.60 out. 1,000 prompt of which 600 cached, 200 out.
    const cost = costOfUsage(tokens("gpt-4.1-mini", 1000, 600, 200), DEFAULT_PRICES);
    expect(cost).toBeCloseTo((400 * 0.4 + 600 * 0.1 + 200 * 1.6) / 1e6, 15);
  });

  it("charges cached tokens at the input price when the model has no cached price", () => {
    const table = { "my-model": { input: 3, output: 6 } };
    expect(costOfUsage(tokens("my-model", 1000, 1000, 0), table)).toBeCloseTo(0.003, 15);
  });

  it("has no price for an unknown model, rather than a guess from a similar name", () => {
    expect(costOfUsage(tokens("llama3:8b", 1000, 0, 1000), DEFAULT_PRICES)).toBeNull();
    expect(priceOf("gpt-4o-mini-preview", DEFAULT_PRICES)).toBeUndefined();
    expect(priceOf("gpt-4o-mini", DEFAULT_PRICES)).toEqual(DEFAULT_PRICES["gpt-4o-mini"]);
  });

  it("prices a dated snapshot as its model", () => {
    expect(priceOf("gpt-4o-2024-08-06", DEFAULT_PRICES)).toEqual(DEFAULT_PRICES["gpt-4o"]);
    expect(priceOf("gpt-4o-mini-2024-07-18", DEFAULT_PRICES)).toEqual(
      DEFAULT_PRICES["gpt-4o-mini"],
    );
  });
});

describe("priceTableWith", () => {
  it("lets the config override a default price and add a model", () => {
    const table = priceTableWith({
      "gpt-4o": { input: 1, output: 2 },
      "llama3:8b": { input: 0, output: 0 },
    });
    expect(costOfUsage(tokens("gpt-4o", 1_000_000, 0, 1_000_000), table)).toBe(3);
    expect(costOfUsage(tokens("llama3:8b", 5000, 0, 5000), table)).toBe(0);
    expect(costOfUsage(tokens("gpt-4o-mini", 1_000_000, 0, 0), table)).toBeCloseTo(0.15, 12);
  });

  it("refuses a negative or misspelt price, naming the field", () => {
    const bad = PriceTableSchema.safeParse({ "gpt-4o": { input: -1, ouput: 2 } });
    expect(bad.success).toBe(false);
    const paths = bad.error?.issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["gpt-4o.input", "gpt-4o.output"]));
  });
});

describe("costTotalOf", () => {
  it("sums what is priced and names the models that are not", () => {
    const total = costTotalOf([
      pricedUsage(
        { role: "judge", calls: 1, ...tokens("gpt-4o-mini", 1000, 0, 100) },
        DEFAULT_PRICES,
      ),
      pricedUsage({ role: "bot", calls: 1, ...tokens("my-llm", 500, 0, 50) }, DEFAULT_PRICES),
      pricedUsage({ role: "bot", calls: 1, ...tokens("my-llm", 5, 0, 5) }, DEFAULT_PRICES),
    ]);
    expect(total).toEqual({
      cost_usd: (1000 * 0.15 + 100 * 0.6) / 1e6,
      prompt_tokens: 1505,
      cached_tokens: 0,
      completion_tokens: 155,
      unpriced_models: ["my-llm"],
    });
    expect(formatCost(total)).toBe("$0.00021 + price unknown for my-llm");
    expect(formatCost({ cost_usd: 0, unpriced_models: ["my-llm"] })).toBe(
      "price unknown for my-llm",
    );
  });
});

describe("formatUsd", () => {
  it("shows cents from a cent up and two significant digits below", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(12.345)).toBe("$12.35");
    expect(formatUsd(0.01)).toBe("$0.01");
    expect(formatUsd(0.00123)).toBe("$0.0012");
    expect(formatUsd(0.000021)).toBe("$0.000021");
  });
});

describe("DEFAULT_PRICES", () => {
  it("is a valid table, dated", () => {
    expect(PriceTableSchema.parse(DEFAULT_PRICES)).toEqual(DEFAULT_PRICES);
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
