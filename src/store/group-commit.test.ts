import { describe, expect, it } from "vitest";
import { groupCommit } from "./group-commit.js";

/** A write whose batches the test releases by hand, recording what each batch held. */
function gatedWrite(fail: (item: number) => boolean = () => false) {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const write = async (items: number[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => gates.push(resolve));
    if (items.some(fail)) throw new Error(`bad item in ${items.join(",")}`);
    return items.map((item) => item * 10);
  };
  const release = async () => {
    while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    gates.shift()?.();
  };
  return { write, batches, release };
}

describe("groupCommit", () => {
  it("writes the first item at once and the items asked for meanwhile as one batch", async () => {
    const { write, batches, release } = gatedWrite();
    const commit = groupCommit(write);
    const results = [1, 2, 3, 4].map((item) => commit(item));
    await release();
    await release();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it("caps a batch at maxBatch", async () => {
    const { write, batches, release } = gatedWrite();
    const commit = groupCommit(write, { maxBatch: 2 });
    const results = [1, 2, 3, 4, 5].map((item) => commit(item));
    for (let i = 0; i < 3; i++) await release();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it("retries a failed batch item by item, so only the bad item fails", async () => {
    const { write, batches, release } = gatedWrite((item) => item === 3);
    const commit = groupCommit(write);
    const results = [1, 2, 3, 4].map((item) => commit(item).catch((error: Error) => error.message));
    for (let i = 0; i < 5; i++) await release();
    expect(await Promise.all(results)).toEqual([10, 20, "bad item in 3", 40]);
    expect(batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it("runs up to `lanes` batches at once", async () => {
    const { write, batches, release } = gatedWrite();
    const commit = groupCommit(write, { lanes: 2 });
    const results = [1, 2, 3, 4].map((item) => commit(item));
    await release();
    await release();
    await release();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2], [3, 4]]);
  });
});
