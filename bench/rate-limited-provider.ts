// An OpenAI-shaped chat server that behaves like a provider with a concurrency limit: beyond
// `maxConcurrent` requests in flight it answers 429 at once with Retry-After, and it answers the
// others after a latency drawn from a lognormal spread (real LLM latencies are right-skewed).

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { seededRandom } from "../test/support/seeded-random.js";

export interface RateLimitedProviderOptions {
  maxConcurrent: number;
  /** Median latency of an answered call, ms. */
  medianMs: number;
  /** Spread of ln(latency); 0.35 puts 90% of calls within about 0.55x-1.8x the median. */
  sigma: number;
  /** Retry-After on a 429, seconds. */
  retryAfterSeconds: number;
  /** The JSON every chat call answers with (a judge or a generator accepts it). */
  reply: unknown;
  /** Seed of the latency draws, so two runs see the same spread. */
  seed?: number;
}

export interface RateLimitedProvider {
  baseUrl: string;
  stats(): { answered: number; rateLimited: number; latencySumMs: number; peakInFlight: number };
  close(): Promise<void>;
}

export async function startRateLimitedProvider(
  options: RateLimitedProviderOptions,
): Promise<RateLimitedProvider> {
  const random = seededRandom(options.seed ?? 7);
  const lognormal = () => {
    // Box-Muller: a standard normal from two uniforms.
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return options.medianMs * Math.exp(options.sigma * z);
  };
  let inFlight = 0;
  let peakInFlight = 0;
  let answered = 0;
  let rateLimited = 0;
  let latencySumMs = 0;
  const content = JSON.stringify(options.reply);

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      if (inFlight >= options.maxConcurrent) {
        rateLimited++;
        res.writeHead(429, {
          "content-type": "application/json",
          "retry-after": String(options.retryAfterSeconds),
        });
        res.end(JSON.stringify({ error: { message: "Rate limit reached", type: "rate_limit" } }));
        return;
      }
      inFlight++;
      peakInFlight = Math.max(peakInFlight, inFlight);
      const latency = lognormal();
      setTimeout(() => {
        inFlight--;
        answered++;
        latencySumMs += latency;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${answered}`,
            object: "chat.completion",
            created: 0,
            model: "provider-model",
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
            usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
          }),
        );
      }, latency);
    });
  };

  const server = createServer(handle);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stats: () => ({ answered, rateLimited, latencySumMs, peakInFlight }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
