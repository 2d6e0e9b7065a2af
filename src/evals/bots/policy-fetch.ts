// A fetch that goes only where a network policy allows, checked at every connection: an IP
// literal before the request, a host name's every address at connect time (network-policy.ts).
// Redirects are never followed (http-fetch.ts), so a 3xx cannot lead anywhere else. Used by
// alert webhooks, which obey the same policy as HTTP bots (issue 24 §4, issue 12 §1.2).

import { createAgentFetch, type FetchLike } from "./http-fetch.js";
import { type BotNetworkPolicy, checkedLookup, checkUrlHost } from "./network-policy.js";

export function createPolicyFetch(
  policy: BotNetworkPolicy,
  options: { maxBodyBytes?: number } = {},
): FetchLike {
  const fetch = createAgentFetch({
    lookup: checkedLookup(policy),
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024,
    maxSockets: 16,
  });
  return async (input, init) => {
    // Throws BotNetworkPolicyError (code EBOTPOLICY) for a refused literal.
    checkUrlHost(new URL(input), policy);
    return fetch(input, init);
  };
}
