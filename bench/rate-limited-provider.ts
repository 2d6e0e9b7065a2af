// An OpenAI-shaped chat server that behaves like a provider with a concurrency limit: beyond
// `maxConcurrent` requests in flight it answers 429 at once with Retry-After, and it answers the
// others after a latency drawn from a lognormal spread (real LLM latencies are right-skewed).
// With maxConcurrent Infinity and sigma 0 it is a plain server at a fixed latency that counts the
// calls it answered per model (the promptfoo side-by-side counts each tool's calls with it).

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { seededRandom } from "../test/support/seeded-random.js";

const MODEL_FIELD = /"model"\s*:\s*"([^"\\]*)"/;

export interface RateLimitedProviderOptions {
  /** Calls in flight beyond which it answers 429; Infinity for none. */
  maxConcurrent: number;
  /** Median latency of an answered call, ms. */
  medianMs: number;
  /** Spread of ln(latency); 0.35 puts 90% of calls within about 0.55x-1.8x the median; 0 fixes it. */
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
  stats(): {
    answered: number;
    rateLimited: number;
    latencySumMs: number;
    peakInFlight: number;
    /** Answered calls per request `model` ("?" when the body names none). */
    answeredByModel: Record<string, number>;
  };
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
  const answeredByModel: Record<string, number> = {};
  const content = JSON.stringify(options.reply);

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
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
      const latency = options.medianMs > 0 ? lognormal() : 0;
      const model = MODEL_FIELD.exec(Buffer.concat(chunks).toString())?.[1] ?? "?";
      const send = () => {
        inFlight--;
        answered++;
        answeredByModel[model] = (answeredByModel[model] ?? 0) + 1;
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
      };
      if (latency > 0) setTimeout(send, latency);
      else send();
    });
  };

  const server = createServer(handle);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stats: () => ({
      answered,
      rateLimited,
      latencySumMs,
      peakInFlight,
      answeredByModel: { ...answeredByModel },
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
