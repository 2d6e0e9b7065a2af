import { describe, expect, it } from "vitest";
import {
  BotNetworkPolicyError,
  checkBotUrl,
  checkUrlHost,
  OPEN_BOT_NETWORK,
  refusedRange,
  restrictedBotNetwork,
} from "./network-policy.js";

const strict = restrictedBotNetwork();

describe("the bot network policy", () => {
  it("refuses loopback, private, link-local, unspecified and other special addresses by default", () => {
    const refused: Array<[string, string]> = [
      ["127.0.0.1", "loopback"],
      ["127.8.9.10", "loopback"],
      ["::1", "loopback"],
      ["::ffff:127.0.0.1", "loopback"],
      ["10.1.2.3", "private"],
      ["172.16.0.1", "private"],
      ["192.168.1.1", "private"],
      ["169.254.169.254", "link-local"],
      ["fe80::1", "link-local"],
      ["fd00::1", "unique-local (private)"],
      ["0.0.0.0", "unspecified"],
      ["::", "unspecified"],
      ["100.64.0.1", "carrier-grade NAT"],
      ["224.0.0.1", "multicast"],
      ["64:ff9b::7f00:1", "rfc6052"],
    ];
    for (const [address, range] of refused)
      expect(refusedRange(address, strict), address).toBe(range);
    expect(refusedRange("93.184.216.34", strict)).toBeUndefined();
    expect(refusedRange("2606:4700::1111", strict)).toBeUndefined();
  });

  it("refuses IPv4-compatible IPv6 (::/96) in every spelling, as it refuses NAT64, 6to4 and Teredo", () => {
    const compatible = "deprecated IPv4-compatible IPv6";
    const refused: Array<[string, string]> = [
      ["::7f00:1", compatible],
      ["::a9fe:a9fe", compatible],
      ["0:0:0:0:0:0:7f00:1", compatible],
      ["::a00:1", compatible],
      ["::2", compatible],
      ["::ffff:0:7f00:1", "rfc6145"],
      ["2002:7f00:1::", "6to4"],
      ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo"],
    ];
    for (const [address, range] of refused)
      expect(refusedRange(address, strict), address).toBe(range);
    for (const url of [
      "http://[::7f00:1]/ask",
      "http://[::127.0.0.1]/ask",
      "http://[::a9fe:a9fe]/latest/meta-data/",
      "http://[::169.254.169.254]/latest/meta-data/",
      "http://[0:0:0:0:0:0:7f00:1]:8080/ask",
    ]) {
      expect(() => checkUrlHost(new URL(url), strict), url).toThrow(
        /does not allow .* \(a deprecated IPv4-compatible IPv6 address\)/,
      );
    }
    // The operator can still allow one, by an IPv6 network.
    expect(
      refusedRange("::7f00:1", restrictedBotNetwork({ allow_networks: ["::7f00:0/120"] })),
    ).toBeUndefined();
  });

  it("allows the operator's networks and hosts, and can refuse public addresses", () => {
    const policy = restrictedBotNetwork({
      allow_networks: ["127.0.0.1/32", "10.20.0.0/16", "::ffff:192.168.7.0/120"],
      allow_hosts: ["bot.internal", "*.corp.example"],
      allow_public: false,
    });
    expect(refusedRange("127.0.0.1", policy)).toBeUndefined();
    expect(refusedRange("127.0.0.2", policy)).toBe("loopback");
    expect(refusedRange("10.20.3.4", policy)).toBeUndefined();
    expect(refusedRange("10.21.3.4", policy)).toBe("private");
    expect(refusedRange("192.168.7.9", policy)).toBeUndefined();
    expect(refusedRange("93.184.216.34", policy)).toBe("public (allow_public is off)");
    expect(checkUrlHost(new URL("http://bot.internal:8080/ask"), policy)).toBe("allowed");
    expect(checkUrlHost(new URL("http://a.b.corp.example/ask"), policy)).toBe("allowed");
    expect(checkUrlHost(new URL("http://corp.example.evil/ask"), policy)).toBe("resolve");
  });

  it("judges a URL's literal address as the URL parser normalizes it", () => {
    for (const url of [
      "http://127.0.0.1:8080/x",
      "http://2130706433/x",
      "http://0x7f.0.0.1/x",
      "http://[::1]/x",
      "http://[::ffff:7f00:1]/x",
    ]) {
      expect(() => checkUrlHost(new URL(url), strict), url).toThrow(BotNetworkPolicyError);
    }
    expect(() => checkUrlHost(new URL("http://169.254.169.254/latest"), strict)).toThrow(
      /bot network policy does not allow 169\.254\.169\.254 \(a link-local address\).*bots\.allow_networks/,
    );
  });

  it("resolves a host name and refuses it when any address is not allowed", async () => {
    await expect(checkBotUrl(new URL("http://localhost:9/ask"), strict)).rejects.toThrow(
      /does not allow localhost \(a loopback address\)/,
    );
    await expect(
      checkBotUrl(
        new URL("http://localhost:9/ask"),
        restrictedBotNetwork({ allow_hosts: ["localhost"] }),
      ),
    ).resolves.toBeUndefined();
    await expect(
      checkBotUrl(new URL("http://localhost:9/ask"), OPEN_BOT_NETWORK),
    ).resolves.toBeUndefined();
  });
});
