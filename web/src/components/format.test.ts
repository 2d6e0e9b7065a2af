import { describe, expect, it } from "vitest";
import { formatDelta, formatPercent, formatScore, formatUsd } from "./format";

describe("format", () => {
  it("shows a missing score or rate as a dash, not as zero", () => {
    expect(formatScore(null)).toBe("—");
    expect(formatScore(0)).toBe("0.00");
    expect(formatPercent(undefined)).toBe("—");
    expect(formatPercent(0.9166)).toBe("91.7%");
  });

  it("signs deltas", () => {
    expect(formatDelta(-0.4)).toBe("−0.40");
    expect(formatDelta(0.05)).toBe("+0.05");
    expect(formatDelta(0)).toBe("±0.00");
    expect(formatDelta(null)).toBe("—");
  });

  it("shows dollars with enough digits that a cheap run is not $0.00", () => {
    expect(formatUsd(null)).toBe("—");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(1.234)).toBe("$1.23");
    expect(formatUsd(0.0016)).toBe("$0.0016");
    expect(formatUsd(0.000021)).toBe("$0.000021");
  });
});
