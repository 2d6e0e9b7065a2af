import { describe, expect, it } from "vitest";
import { fieldErrors, formatAlertValue, thresholdFromInput } from "./alert-words";

describe("alert words", () => {
  it("shows shares as percentages and latency in milliseconds", () => {
    expect(formatAlertValue("gate_pass_rate", 0.625)).toBe("62.5%");
    expect(formatAlertValue("thumbs_down_share", 0.1)).toBe("10%");
    expect(formatAlertValue("latency_p95_ms", 1234.6)).toBe("1235 ms");
    expect(formatAlertValue("gate_pass_rate", null)).toBe("—");
  });

  it("reads a typed percentage as the share the API takes", () => {
    expect(thresholdFromInput("gate_pass_rate", "90")).toBeCloseTo(0.9);
    expect(thresholdFromInput("latency_p95_ms", "2000")).toBe(2000);
  });

  it("puts each refused field's first message by its name", () => {
    expect(
      fieldErrors({
        issues: [
          { path: "threshold", message: "between 0 and 1" },
          { path: "filter.service", message: "too long" },
          { path: "threshold", message: "second" },
        ],
      }),
    ).toEqual({ threshold: "between 0 and 1", "filter.service": "too long" });
  });
});
