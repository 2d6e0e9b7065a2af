import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";

describe("canonicalJson", () => {
  it("sorts keys at every depth, keeps array order and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null, e: undefined } })).toBe(
      '{"a":{"c":null,"d":[2,1]},"b":1}',
    );
    expect(canonicalJson([undefined, "x"])).toBe('[null,"x"]');
  });

  it("gives the same text for the same value built in another key order", () => {
    expect(canonicalJson({ z: { y: 1, x: [{ b: 2, a: 1 }] }, a: "s" })).toBe(
      canonicalJson({ a: "s", z: { x: [{ a: 1, b: 2 }], y: 1 } }),
    );
  });
});
