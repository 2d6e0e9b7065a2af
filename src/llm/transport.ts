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
 * and its web Response/Headers cost about twice the CPU per call on loopback, which caps judge
 * throughput on a 2-core machine. This one buffers the whole body before resolving (so the SDK's
 * timeout also covers a server that sends headers and then stalls) and resolves with a
 * BufferedResponse: enough of Response for the SDK's non-streaming calls, nothing more.
 */
export function createAgentFetch(options: AgentFetchOptions = {}): FetchLike {
  const maxSockets = options.maxSockets ?? 256;
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const httpsAgent = new https.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });

  // The SDK asks for the same few URLs over and over: parse each once.
  const targets = new Map<string, Target>();
  const targetOf = (href: string): Target => {
    let target = targets.get(href);
    if (!target) {
      const url = new URL(href);
      target = {
        href: url.href,
        secure: url.protocol === "https:",
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port,
        path: `${url.pathname}${url.search}`,
      };
      if (targets.size < 1_000) targets.set(href, target);
    }
    return target;
  };

  return (input, init = {}) => {
    const target = targetOf(
      typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
    );
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const secure = target.secure;
    const headers = headerRecord(init.headers);
    // Compressed bodies are decoded below; ask for the cheap ones only.
    headers["accept-encoding"] = "gzip, deflate";
    const body = requestBody(init.body);
    if (body !== undefined) {
      headers["content-length"] = String(
        typeof body === "string" ? Buffer.byteLength(body) : body.byteLength,
      );
    }

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
        {
          hostname: target.hostname,
          port: target.port,
          path: target.path,
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
              const headers = new BufferedHeaders(response.rawHeaders);
              if (decoded !== raw) {
                headers.delete("content-encoding");
                headers.delete("content-length");
              }
              const result = new BufferedResponse(
                response.statusCode ?? 500,
                response.statusMessage ?? "",
                headers,
                target.href,
                decoded,
              );
              settled = true;
              signal?.removeEventListener("abort", onAbort);
              resolve(result as unknown as Response);
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

interface Target {
  href: string;
  secure: boolean;
  hostname: string;
  port: string;
  path: string;
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

/** Strings are written as they are (no copy into a Buffer first); binary bodies as a view. */
function requestBody(body: RequestInit["body"]): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
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

/**
 * The read-only part of `Headers` the SDK uses (get, has, entries, forEach, iteration), over a Map:
 * a web Headers validates every name and value again, which costs more than the request itself.
 */
export class BufferedHeaders {
  readonly #map = new Map<string, string>();

  constructor(raw: readonly string[] = []) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = (raw[i] as string).toLowerCase();
      const value = raw[i + 1] as string;
      const existing = this.#map.get(name);
      this.#map.set(name, existing === undefined ? value : `${existing}, ${value}`);
    }
  }

  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.#map.delete(name.toLowerCase());
  }

  entries(): IterableIterator<[string, string]> {
    return this.#map.entries();
  }

  keys(): IterableIterator<string> {
    return this.#map.keys();
  }

  values(): IterableIterator<string> {
    return this.#map.values();
  }

  forEach(callback: (value: string, name: string) => void): void {
    this.#map.forEach(callback);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#map.entries();
  }
}

/**
 * A fully buffered response with the members the openai SDK reads (status, ok, headers, url, body,
 * text, json). `body` is null: the SDK only streams when asked to, and ragjudge never asks.
 */
export class BufferedResponse {
  readonly body = null;
  readonly redirected = false;
  readonly type = "basic";
  #used = false;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: BufferedHeaders,
    readonly url: string,
    readonly buffer: Buffer,
  ) {}

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async text(): Promise<string> {
    this.#used = true;
    return this.buffer.toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    this.#used = true;
    const copy = new ArrayBuffer(this.buffer.byteLength);
    new Uint8Array(copy).set(this.buffer);
    return copy;
  }

  clone(): BufferedResponse {
    return new BufferedResponse(this.status, this.statusText, this.headers, this.url, this.buffer);
  }
}
