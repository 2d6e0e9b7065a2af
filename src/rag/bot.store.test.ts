// The built-in bot's observational_data file on a server with several users (issue 22 §13): each
// user's passing answers go to a file of their own, private to the server's account, or nowhere.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/support/stores.js";
import { findOrCreateUser, type Store } from "../store/index.js";
import { createBuiltinBot } from "./bot.js";
import { parseLoopsConfig } from "./loops/index.js";

let store: Store;
const dir = mkdtempSync(join(tmpdir(), "ragjudge-bot-observations-"));
beforeAll(async () => {
  store = await openTestStore("pglite");
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const DOCUMENT = {
  source: "fire.md",
  kind: "markdown" as const,
  title: "Fire",
  blocks: [
    {
      text: "The Great Fire of 1869 destroyed 412 buildings in the harbour district, including the old town hall.",
    },
  ],
  metadata: {},
};

/** A bot of `name` with the document ingested; `ask` puts `question` to it. */
async function botOf(name: string, observations: Record<string, unknown>) {
  const user = await findOrCreateUser(store.db, name);
  const bot = createBuiltinBot({
    db: store.db,
    workspaceId: user.id,
    loops: parseLoopsConfig({ observations }),
  });
  await bot.ingestDocuments([DOCUMENT], "fire");
  return {
    user,
    ask: async (question: string) => {
      const result = await bot.ask({ question, collection: "fire" });
      expect(result.answer_exit).toBe("passed");
      return result;
    },
  };
}

describe("the built-in bot's observations file", () => {
  it("gives each user a file of their own, readable by the server's account only", async () => {
    const path = join(dir, "split", "observational_data.jsonl");
    const alice = await botOf("alice", { path });
    const bob = await botOf("bob", { path });
    await alice.ask("How many buildings did the Great Fire destroy?");
    await bob.ask("What did the Great Fire of 1869 destroy?");
    const own = (id: string) => join(dir, "split", `observational_data.${id}.jsonl`);
    expect(readdirSync(join(dir, "split")).sort()).toEqual(
      [
        `observational_data.${alice.user.id}.jsonl`,
        `observational_data.${bob.user.id}.jsonl`,
      ].sort(),
    );
    for (const [user, question] of [
      [alice.user, "How many buildings did the Great Fire destroy?"],
      [bob.user, "What did the Great Fire of 1869 destroy?"],
    ] as const) {
      const lines = readFileSync(own(user.id), "utf8").trim().split("\n");
      expect(lines.map((line) => (JSON.parse(line) as { question: string }).question)).toEqual([
        question,
      ]);
      expect(statSync(own(user.id)).mode & 0o777).toBe(0o600);
    }
  });

  it("writes one shared file when per_user is off, and none when the path is null", async () => {
    const path = join(dir, "shared", "observational_data.jsonl");
    const carol = await botOf("carol", { path, per_user: false });
    const result = await carol.ask("How many buildings did the Great Fire destroy?");
    expect(readdirSync(join(dir, "shared"))).toEqual(["observational_data.jsonl"]);
    expect(result.observations?.file).toEqual({ path, ok: true });

    const dave = await botOf("dave", { path: null });
    const off = await dave.ask("How many buildings did the Great Fire destroy?");
    expect(off.observations?.file).toBeNull();
  });
});
