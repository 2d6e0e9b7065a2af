import { describe, expect, it } from "vitest";
import { BotNetworkConfigSchema } from "./bots.js";

describe("BotNetworkConfigSchema", () => {
  it("defaults to public addresses only", () => {
    expect(BotNetworkConfigSchema.parse({})).toEqual({
      allow_hosts: [],
      allow_networks: [],
      allow_public: true,
    });
  });

  it("names the entry at fault", () => {
    const bad = BotNetworkConfigSchema.safeParse({ allow_networks: ["10.0.0.0/8", "10.0.0.0/33"] });
    expect(bad.error?.issues[0]?.path).toEqual(["allow_networks", 1]);
    expect(BotNetworkConfigSchema.safeParse({ allow_hosts: ["http://x"] }).success).toBe(false);
    expect(BotNetworkConfigSchema.safeParse({ allow_everything: true }).success).toBe(false);
  });

  it("keeps host names lower-case, as DNS compares them", () => {
    expect(BotNetworkConfigSchema.parse({ allow_hosts: [" Bot.Internal "] }).allow_hosts).toEqual([
      "bot.internal",
    ]);
  });
});
