import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

/** The subset of `fetch` the openai SDK calls. */
export type FetchLike = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface AgentFetchOptions {
  /** Sockets per host; keep-alive connections are reused across calls. Default 256. */
  maxSockets?: number;
}

/**
 * A `fetch` for the openai SDK built on node:http keep-alive agents. Node's built-in fetch (undici)
 * costs about twice the CPU per call on loopback, which caps judge throughput on a 2-core machine;
 * this one buffers the whole body before resolving, so the SDK's timeout also covers a server that
 * sends headers and then stalls.
 */
export function createAgentFetch(options: AgentFetchOptions = {}): FetchLike {
  const maxSockets = options.maxSockets ?? 256;
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const httpsAgent = new https.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });

  return (input, init = {}) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const secure = url.protocol === "https:";
    const headers = headerRecord(init.headers);
    // Compressed bodies are decoded below; ask for the cheap ones only.
    headers["accept-encoding"] = "gzip, deflate";
    const body = bodyBuffer(init.body);
    if (body !== undefined) headers["content-length"] = String(body.byteLength);

    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      };
      const onAbort = () => {
        request.destroy();
        fail(abortError(signal));
      };
      const request = (secure ? https : http).request(
        url,
        {
          method: init.method ?? "GET",
          headers,
          agent: secure ? httpsAgent : httpAgent,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", fail);
          response.on("aborted", () => fail(new TypeError("response aborted")));
          response.on("end", () => {
            if (settled) return;
            try {
              const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
              const encoding = response.headers["content-encoding"];
              const decoded = decodeBody(raw, encoding);
              const status = response.statusCode ?? 500;
              const nullBody = status === 204 || status === 205 || status === 304;
              const headers = responseHeaders(response.rawHeaders);
              if (decoded !== raw) {
                headers.delete("content-encoding");
                headers.delete("content-length");
              }
              const result = new Response(nullBody ? null : (decoded as Uint8Array<ArrayBuffer>), {
                status,
                statusText: response.statusMessage ?? "",
                headers,
              });
              settled = true;
              signal?.removeEventListener("abort", onAbort);
              resolve(result);
            } catch (error) {
              fail(error);
            }
          });
        },
      );
      request.on("error", (cause) => fail(new TypeError("fetch failed", { cause })));
      signal?.addEventListener("abort", onAbort, { once: true });
      request.end(body);
    });
  };
}

function abortError(signal: AbortSignal | undefined): unknown {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("This operation was aborted", "AbortError");
}

function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) {
    headers.forEach((value, key) => {
      out[key] = value;
    });
  } else if (Array.isArray(headers)) {
    for (const [key, value] of headers) {
      if (key !== undefined && value !== undefined) out[key.toLowerCase()] = value;
    }
  } else {
    for (const [key, value] of Object.entries(headers)) {
      out[key.toLowerCase()] = typeof value === "string" ? value : value.join(", ");
    }
  }
  return out;
}

function bodyBuffer(body: RequestInit["body"]): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError("createAgentFetch sends string or binary bodies only");
}

function decodeBody(raw: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case "":
    case "identity":
      return raw;
    case "gzip":
    case "x-gzip":
      return zlib.gunzipSync(raw);
    case "deflate":
      return zlib.inflateSync(raw);
    case "br":
      return zlib.brotliDecompressSync(raw);
    default:
      throw new TypeError(`unsupported content-encoding ${encoding}`);
  }
}

function responseHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    headers.append(raw[i] as string, raw[i + 1] as string);
  }
  return headers;
}
