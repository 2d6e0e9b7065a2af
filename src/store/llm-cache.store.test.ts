import { expect, it } from "vitest";
import { describeEachStore } from "../../test/support/stores.js";
import { llmResponseCache } from "./llm-cache.js";
import { findOrCreateUser } from "./users.js";

describeEachStore("LLM response cache", (use) => {
  it("returns what was stored under a key, to the same user only, first write winning", async () => {
    const { db } = use();
    const alice = llmResponseCache(db, (await findOrCreateUser(db, "alice")).id);
    const bob = llmResponseCache(db, (await findOrCreateUser(db, "bob")).id);
    const first = { model: "m", content: '{"passed":true}', usage: { total_tokens: 3 } };
    await alice.set("k1", first);
    await alice.set("k1", { ...first, content: "second" });
    expect(await alice.get("k1")).toEqual(first);
    expect(await alice.get("k2")).toBeUndefined();
    expect(await bob.get("k1")).toBeUndefined();
  });
});
