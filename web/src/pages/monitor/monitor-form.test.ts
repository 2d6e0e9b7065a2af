import { describe, expect, it } from "vitest";
import { bodyOf, draftOf, EMPTY_DRAFT } from "./monitor-form";

describe("the monitor form's body", () => {
  it("turns a percent into a share, metadata lines into pairs, and leaves blank filters out", () => {
    expect(
      bodyOf({
        ...EMPTY_DRAFT,
        name: "acme",
        service: " shop ",
        metadata: "tenant = acme\n\nregion=eu",
        gate: ["fail"],
        feedback: "down",
        samplePercent: "12.5",
        judges: ["review"],
        perMinute: "5",
        perDay: "100",
      }),
    ).toEqual({
      name: "acme",
      enabled: true,
      filter: {
        service: "shop",
        metadata: { tenant: "acme", region: "eu" },
        gate: ["fail"],
        feedback: "down",
      },
      sample_rate: 0.125,
      judges: ["review"],
      max_calls_per_minute: 5,
      max_calls_per_day: 100,
    });
  });
  it("names the metadata line that is not key=value", () => {
    expect(bodyOf({ ...EMPTY_DRAFT, metadata: "a=1\nnonsense" })).toEqual({ badLine: 2 });
  });
  it("edits a stored monitor from the same fields", () => {
    const body = bodyOf({ ...EMPTY_DRAFT, name: "x", metadata: "k=v", samplePercent: "25" });
    if ("badLine" in body) throw new Error("unexpected");
    expect(bodyOf(draftOf(body))).toEqual(body);
  });
});
