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

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("groupCommit", () => {
  it("writes the items of one turn as one batch, and those asked for meanwhile as the next", async () => {
    const { write, batches, release } = gatedWrite();
    const commit = groupCommit(write);
    const first = [1, 2].map((item) => commit(item));
    await nextTurn();
    expect(batches).toEqual([[1, 2]]);
    const later = [3, 4].map((item) => commit(item));
    await release();
    await release();
    expect(await Promise.all([...first, ...later])).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it("writes a lone item after the current turn, without waiting for a timer", async () => {
    const { write, batches, release } = gatedWrite();
    const commit = groupCommit(write);
    const result = commit(7);
    expect(batches).toEqual([]);
    await nextTurn();
    expect(batches).toEqual([[7]]);
    await release();
    expect(await result).toBe(70);
  });

  it("caps a batch at maxBatch", async () => {
    const { write, batches, release } = gatedWrite();
    const commit = groupCommit(write, { maxBatch: 2 });
    const results = [1, 2, 3, 4, 5].map((item) => commit(item));
    for (let i = 0; i < 3; i++) await release();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("retries a failed batch item by item, so only the bad item fails", async () => {
    const { write, batches, release } = gatedWrite((item) => item === 3);
    const commit = groupCommit(write);
    const results = [1, 2, 3, 4].map((item) => commit(item).catch((error: Error) => error.message));
    for (let i = 0; i < 5; i++) await release();
    expect(await Promise.all(results)).toEqual([10, 20, "bad item in 3", 40]);
    expect(batches).toEqual([[1, 2, 3, 4], [1], [2], [3], [4]]);
  });

  it("runs up to `lanes` batches at once", async () => {
    const { write, batches, release } = gatedWrite();
    const commit = groupCommit(write, { lanes: 2 });
    const results = [commit(1)];
    await nextTurn();
    results.push(commit(2)); // the first lane is busy: a second one starts
    await nextTurn();
    results.push(commit(3), commit(4)); // both busy: these wait for the first lane that frees
    await nextTurn();
    expect(batches).toEqual([[1], [2]]);
    await release();
    await release();
    await release();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2], [3, 4]]);
  });
});
