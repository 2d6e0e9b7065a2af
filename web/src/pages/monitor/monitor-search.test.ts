import { describe, expect, it } from "vitest";
import { monitorSearchFrom, seriesQuery } from "./monitor-search";

describe("monitorSearchFrom", () => {
  it("keeps a known scope, bucket and breakdown", () => {
    expect(
      monitorSearchFrom({ service: " shop ", bucket: "day", breakdown: "metadata.tenant" }),
    ).toEqual({ service: "shop", bucket: "day", breakdown: "metadata.tenant" });
  });
  it("drops what it does not know, and takes one scope only", () => {
    expect(
      monitorSearchFrom({ service: "a", collection: "b", bucket: "week", breakdown: "user" }),
    ).toEqual({ service: "a" });
    expect(monitorSearchFrom({ collection: "b" })).toEqual({ collection: "b" });
  });
});

describe("seriesQuery", () => {
  it("asks for hours by model unless told otherwise", () => {
    expect(seriesQuery({})).toEqual({ bucket: "hour", breakdown: "model" });
    expect(seriesQuery({ collection: "c", bucket: "minute" })).toEqual({
      bucket: "minute",
      breakdown: "model",
      collection: "c",
    });
  });
});
