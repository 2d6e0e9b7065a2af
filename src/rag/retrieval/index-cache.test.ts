import { describe, expect, it } from "vitest";
import { VersionedIndexCache } from "./index-cache.js";

describe("VersionedIndexCache", () => {
  it("shares one build between concurrent queries of a version", async () => {
    const cache = new VersionedIndexCache<string>();
    const owner = {};
    let builds = 0;
    const build = async () => `index ${++builds}`;
    const got = await Promise.all([
      cache.get(owner, "c", "1", build),
      cache.get(owner, "c", "1", build),
      cache.get(owner, "c", "1", build),
    ]);
    expect(got).toEqual(["index 1", "index 1", "index 1"]);
    expect(await cache.get(owner, "c", "1", build)).toBe("index 1");
    expect(builds).toBe(1);
  });

  it("rebuilds for another version from the earlier version's index", async () => {
    const cache = new VersionedIndexCache<string>();
    const owner = {};
    await cache.get(owner, "c", "1", async () => "v1");
    const seen: (string | undefined)[] = [];
    const v2 = await cache.get(owner, "c", "2", async (previous) => {
      seen.push(previous);
      return `${previous}+v2`;
    });
    expect(v2).toBe("v1+v2");
    expect(seen).toEqual(["v1"]);
  });

  it("waits for a build in flight, then builds its own version", async () => {
    const cache = new VersionedIndexCache<string>();
    const owner = {};
    let finish: (value: string) => void = () => {};
    const first = cache.get(owner, "c", "1", () => new Promise((resolve) => (finish = resolve)));
    const second = cache.get(owner, "c", "2", async (previous) => `${previous}+v2`);
    finish("v1");
    expect(await first).toBe("v1");
    expect(await second).toBe("v1+v2");
  });

  it("forgets a failed build, so the next query tries again", async () => {
    const cache = new VersionedIndexCache<string>();
    const owner = {};
    await expect(
      cache.get(owner, "c", "1", () => Promise.reject(new Error("database gone"))),
    ).rejects.toThrow("database gone");
    expect(await cache.get(owner, "c", "1", async () => "v1")).toBe("v1");
  });

  it("keeps each owner's indexes apart", async () => {
    const cache = new VersionedIndexCache<string>();
    await cache.get({}, "c", "1", async () => "a");
    expect(await cache.get({}, "c", "1", async () => "b")).toBe("b");
  });
});
