import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeEachStore } from "../../test/support/stores.js";
import { ensureLocalUser } from "./local-user.js";
import { createApiToken, findOrCreateUser, findUserByToken } from "./users.js";
import { tempDir } from "../../test/support/temp-dir.js";

describeEachStore("users and tokens", (use) => {
  it("finds a user by token, and no one by a wrong token", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const token = await createApiToken(db, alice.id);
    expect((await findUserByToken(db, token))?.id).toBe(alice.id);
    expect(await findUserByToken(db, `${token}x`)).toBeUndefined();
  });

  it("creates the local user and its token once, kept in a private file", async () => {
    const { db } = use();
    const home = tempDir("home");
    const first = await ensureLocalUser(db, home);
    const second = await ensureLocalUser(db, home);
    expect(second.user.id).toBe(first.user.id);
    expect(second.token).toBe(first.token);
    expect(readFileSync(join(home, "token"), "utf8").trim()).toBe(first.token);
    expect(statSync(join(home, "token")).mode & 0o777).toBe(0o600);
    expect((await findUserByToken(db, first.token))?.name).toBe("local");
  });
});
