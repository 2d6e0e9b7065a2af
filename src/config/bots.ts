// The `bots` section: which hosts HTTP bots named through the API may reach (docs/security.md).
// The policy that applies it lives with the HTTP bot (evals/bots/network-policy.ts).

import ipaddr from "ipaddr.js";
import { z } from "zod";

const CidrSchema = z.string().refine(
  (value) => {
    try {
      ipaddr.parseCIDR(value.trim());
      return true;
    } catch {
      return false;
    }
  },
  { error: "a CIDR such as 10.0.0.0/8, 127.0.0.1/32 or fd00::/8" },
);

const HostPatternSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?[a-z0-9.-]+$|^[0-9a-f:.]+$/, {
    error: "a host name (bot.internal, *.example.com) or an IP address",
  });

/** The `bots` section of ragjudge.config.json: where HTTP bots named through the API may go. */
export const BotNetworkConfigSchema = z
  .object({
    /**
     * Host names (exact, or `*.example.com` for its subdomains) that may be reached whatever they
     * resolve to, e.g. a bot on the operator's private network.
     */
    allow_hosts: z.array(HostPatternSchema).default([]),
    /** Networks that may be reached, as CIDRs (e.g. `10.20.0.0/16`, `127.0.0.1/32`). */
    allow_networks: z.array(CidrSchema).default([]),
    /** Public unicast addresses; false limits bots to allow_hosts and allow_networks. */
    allow_public: z.boolean().default(true),
  })
  .strict();
export type BotNetworkConfig = z.infer<typeof BotNetworkConfigSchema>;
