import { describe, expect, it } from "vitest";
import { createStreamCap, streamsPerUserFromEnv } from "./stream-cap.js";

describe("createStreamCap", () => {
  it("counts each user's streams apart, and a release frees one place once", () => {
    const cap = createStreamCap(2);
    const first = cap.acquire("alice");
    expect(cap.acquire("alice")).toBeDefined();
    expect(cap.acquire("alice")).toBeUndefined();
    expect(cap.acquire("bob")).toBeDefined();
    first?.();
    first?.();
    expect(cap.acquire("alice")).toBeDefined();
    expect(cap.acquire("alice")).toBeUndefined();
  });
});

describe("streamsPerUserFromEnv", () => {
  it("reads a whole number from 1, leaves an unset one to the default, and names a bad one", () => {
    expect(streamsPerUserFromEnv({ RAGJUDGE_STREAMS_PER_USER: " 50 " })).toBe(50);
    expect(streamsPerUserFromEnv({ RAGJUDGE_STREAMS_PER_USER: "" })).toBeUndefined();
    expect(streamsPerUserFromEnv({})).toBeUndefined();
    for (const bad of ["0", "-1", "2.5", "many"]) {
      expect(() => streamsPerUserFromEnv({ RAGJUDGE_STREAMS_PER_USER: bad })).toThrow(
        `RAGJUDGE_STREAMS_PER_USER must be a whole number from 1, not "${bad}"`,
      );
    }
  });
});
