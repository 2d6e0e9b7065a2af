import { describe, expect, it } from "vitest";
import { grainOf } from "./answer-rollups.js";

describe("grainOf", () => {
  const at = (iso: string) => new Date(iso);
  it("reads hourly rows when the bounds and buckets are whole hours", () => {
    expect(
      grainOf({
        from: at("2026-11-20T10:00:00Z"),
        to: at("2026-11-21T10:00:00Z"),
        bucketSeconds: 86_400,
      }),
    ).toBe(3600);
    expect(grainOf({ from: at("2026-11-20T10:00:00Z"), to: at("2026-11-20T12:00:00Z") })).toBe(
      3600,
    );
  });
  it("reads minute rows for minute buckets or bounds inside an hour", () => {
    expect(
      grainOf({
        from: at("2026-11-20T10:00:00Z"),
        to: at("2026-11-20T11:00:00Z"),
        bucketSeconds: 60,
      }),
    ).toBe(60);
    expect(grainOf({ from: at("2026-11-20T10:05:00Z"), to: at("2026-11-20T12:00:00Z") })).toBe(60);
  });
});
