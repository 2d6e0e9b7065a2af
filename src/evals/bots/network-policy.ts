// Which hosts an HTTP bot may reach. On a shared server an API user names the bot's URL, so without
// a policy the server would fetch loopback services, the cloud metadata endpoint or the operator's
// private network on their behalf (issue 12, SSRF). The operator's policy is checked against every
// address a host name resolves to, at connect time, and the connection goes to the address that
// was checked, so a DNS answer that changes between the check and the connection cannot bypass it.

import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { type BotNetworkConfig, BotNetworkConfigSchema } from "../../config/index.js";

// The schema is the configuration's (config/bots.ts); bot code reads it from here.
export { type BotNetworkConfig, BotNetworkConfigSchema };

/**
 * `open` reaches anything (the CLI on one's own machine, where the user could fetch the URL
 * themselves); `restricted` applies the operator's BotNetworkConfig (bots named through the API).
 */
export type BotNetworkPolicy = { mode: "open" } | ({ mode: "restricted" } & BotNetworkConfig);

export const OPEN_BOT_NETWORK: BotNetworkPolicy = { mode: "open" };

export function restrictedBotNetwork(config: Partial<BotNetworkConfig> = {}): BotNetworkPolicy {
  return { mode: "restricted", ...BotNetworkConfigSchema.parse(config) };
}

/** A target the policy refuses; the message names the policy and how an operator allows it. */
export class BotNetworkPolicyError extends Error {
  override readonly name = "BotNetworkPolicyError";
  readonly code = "EBOTPOLICY";
  constructor(
    readonly host: string,
    readonly range: string,
  ) {
    super(
      `the bot network policy does not allow ${host} (a ${range} address); ` +
        "the operator may allow it with bots.allow_hosts or bots.allow_networks",
    );
  }
}

/** ipaddr.js range names, as a person reads them. */
const RANGE_NAMES: Record<string, string> = {
  unicast: "public",
  loopback: "loopback",
  private: "private",
  linkLocal: "link-local",
  uniqueLocal: "unique-local (private)",
  unspecified: "unspecified",
  carrierGradeNat: "carrier-grade NAT",
  multicast: "multicast",
  broadcast: "broadcast",
  reserved: "reserved",
  ipv4Compatible: "deprecated IPv4-compatible IPv6",
};

const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/**
 * ::/96 beyond :: and ::1 (RFC 4291's deprecated IPv4-compatible form): `[::127.0.0.1]` is
 * serialized by the URL parser as `[::7f00:1]`, which ipaddr.js ranks plain unicast. It carries an
 * IPv4 address the way NAT64, 6to4 and Teredo do, and is refused as they are.
 */
function ipv4Compatible(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return (
    address.kind() === "ipv6" && address.range() === "unicast" && address.match(IPV4_COMPATIBLE)
  );
}

/** IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it carries. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  return ipaddr.process(address.replace(/^\[|\]$/g, ""));
}

function hostAllowed(host: string, policy: BotNetworkConfig): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return policy.allow_hosts.some((pattern) =>
    pattern.startsWith("*.") ? name.endsWith(pattern.slice(1)) : name === pattern,
  );
}

/** Why an address is refused (its range's name), or undefined when the policy allows it. */
export function refusedRange(address: string, policy: BotNetworkPolicy): string | undefined {
  if (policy.mode === "open") return undefined;
  const parsed = parseAddress(address);
  for (const cidr of policy.allow_networks) {
    const [network, bits] = ipaddr.parseCIDR(cidr.trim());
    const candidate =
      parsed.kind() === network.kind()
        ? parsed
        : network.kind() === "ipv6" && parsed.kind() === "ipv4"
          ? (parsed as ipaddr.IPv4).toIPv4MappedAddress()
          : undefined;
    if (candidate?.match(network, bits)) return undefined;
  }
  const range = ipv4Compatible(parsed) ? "ipv4Compatible" : parsed.range();
  if (range === "unicast" && policy.allow_public) return undefined;
  return range === "unicast" ? "public (allow_public is off)" : (RANGE_NAMES[range] ?? range);
}

/**
 * Checks a URL's host without resolving it: an IP literal against the networks, a name against
 * allow_hosts. Returns "resolve" when the name's addresses decide (checkedLookup does that at
 * connect time). Throws BotNetworkPolicyError for a refused literal.
 */
export function checkUrlHost(url: URL, policy: BotNetworkPolicy): "allowed" | "resolve" {
  if (policy.mode === "open") return "allowed";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (hostAllowed(host, policy)) return "allowed";
  if (isIP(host) === 0) return "resolve";
  const range = refusedRange(host, policy);
  if (range !== undefined) throw new BotNetworkPolicyError(host, range);
  return "allowed";
}

/**
 * A `lookup` for net.connect / http.request that resolves every address of the host and refuses
 * the connection if any of them is not allowed (a name that resolves to a public and a private
 * address must not be a way in). The socket connects to the addresses checked here.
 */
export function checkedLookup(policy: BotNetworkPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, "", 0);
        return;
      }
      if (policy.mode === "restricted" && !hostAllowed(hostname, policy)) {
        for (const { address } of addresses) {
          const range = refusedRange(address, policy);
          if (range !== undefined) {
            callback(new BotNetworkPolicyError(hostname, range), "", 0);
            return;
          }
        }
      }
      if (options.all) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      } else {
        const first = addresses[0];
        if (!first)
          callback(
            Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }),
            "",
            0,
          );
        else callback(null, first.address, first.family);
      }
    });
  };
}

/**
 * Checks a URL now, resolving its host (for a 400 when a run or a bot is submitted). The
 * connection is checked again when it is made; a name that does not resolve now passes here.
 */
export async function checkBotUrl(url: URL, policy: BotNetworkPolicy): Promise<void> {
  if (checkUrlHost(url, policy) === "allowed") return;
  const lookup = checkedLookup(policy);
  await new Promise<void>((resolve, reject) => {
    lookup(url.hostname, { all: true }, (error) => {
      if (error instanceof BotNetworkPolicyError) reject(error);
      else resolve();
    });
  });
}
