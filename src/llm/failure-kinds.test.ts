import { describe, expect, it } from "vitest";
import { LlmHttpError, LlmTimeoutError } from "./errors.js";
import { describeFailures, failureKindOf, groupFailures } from "./failure-kinds.js";

describe("failure kinds", () => {
  it("names the kind of an LLM error, and anything else as other", () => {
    expect(failureKindOf(new LlmHttpError(500, "http://x/v1", 1, true, "boom"))).toBe("http");
    expect(failureKindOf(new LlmTimeoutError(1000, "http://x/v1", 1))).toBe("timeout");
    expect(failureKindOf(new Error("what"))).toBe("other");
  });

  it("groups failures by kind with a count, the most frequent first, one example each", () => {
    const groups = groupFailures([
      { kind: "unusable_reply", message: "not JSON" },
      { kind: "http", message: "HTTP 500 a" },
      { kind: "http", message: "HTTP 500 b" },
    ]);
    expect(groups).toEqual([
      { kind: "http", count: 2, example: "HTTP 500 a" },
      { kind: "unusable_reply", count: 1, example: "not JSON" },
    ]);
    expect(describeFailures(groups)).toBe(
      "2 × the model's server answered with an error (e.g. HTTP 500 a); " +
        "1 × the model's reply was unusable (not JSON, or not the expected shape) (e.g. not JSON)",
    );
  });
});
