import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import zlib from "node:zlib";

// The HTTP bot's fetch. Node's built-in fetch (undici) takes no `lookup`, and the bot's network
// policy must check, and pin, the address each new connection goes to (network-policy.ts); node:http
// agents take one. LLM calls use the openai SDK's own fetch.

/** The subset of `fetch` the HTTP bot calls. */
export type FetchLike = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface AgentFetchOptions {
  /** Sockets per host; keep-alive connections are reused across calls. Default 256. */
  maxSockets?: number;
  /** Resolves host names for new connections (e.g. one that checks addresses against a policy). */
  lookup?: LookupFunction;
  /**
   * Largest response body read, in bytes (as received, before decoding); a larger one fails the
   * call (its cause a ResponseTooLargeError) instead of filling the heap. Default: no limit.
   */
  maxBodyBytes?: number;
}

/**
 * A `fetch` on node:http keep-alive agents with a `lookup` of the caller's. It buffers the whole
 * body before resolving (so a timeout also covers a bot that sends headers and then stalls) and
 * resolves with a BufferedResponse: enough of Response for the bot's calls, nothing more.
 */
export function createAgentFetch(options: AgentFetchOptions = {}): FetchLike {
  const maxSockets = options.maxSockets ?? 256;
  const maxBodyBytes = options.maxBodyBytes ?? Number.POSITIVE_INFINITY;
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
        // What node:http would send: brackets around IPv6, the port unless it is the default.
        host: url.host,
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
    const body = requestBody(init.body);
    // Headers go to node:http as a flat [name, value, ...] list: it writes them as they are
    // (validating each) instead of storing them one by one through setHeader first. In that form it
    // adds no Host header, so it is added here, as node:http would have.
    const headers = headerList(init.headers, target.host, body);
    return new Promise<Response>((resolve, reject) => {
      const request = (secure ? https : http).request({
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        method: init.method ?? "GET",
        headers,
        agent: secure ? httpsAgent : httpAgent,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      });
      new Exchange(request, signal, target.href, resolve, reject, maxBodyBytes);
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
  host: string;
}

/**
 * One request's response handling: buffers the body, then settles once (response, error or abort).
 * A class rather than a set of closures per request: fewer allocations on the hot path.
 */
class Exchange {
  #settled = false;
  readonly #chunks: Buffer[] = [];
  readonly #onAbort: (() => void) | undefined;

  constructor(
    readonly request: http.ClientRequest,
    readonly signal: AbortSignal | undefined,
    readonly href: string,
    readonly resolve: (response: Response) => void,
    readonly reject: (error: unknown) => void,
    readonly maxBodyBytes: number,
  ) {
    request.on("response", (response: http.IncomingMessage) => this.#onResponse(response));
    request.on("error", (cause: unknown) => this.#fail(new TypeError("fetch failed", { cause })));
    if (signal) {
      this.#onAbort = () => {
        request.destroy();
        this.#fail(abortError(signal));
      };
      signal.addEventListener("abort", this.#onAbort, { once: true });
    }
  }

  #onResponse(response: http.IncomingMessage): void {
    let bytes = 0;
    response.on("data", (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (bytes > this.maxBodyBytes) {
        this.request.destroy();
        this.#fail(
          new TypeError("fetch failed", { cause: new ResponseTooLargeError(this.maxBodyBytes) }),
        );
        return;
      }
      this.#chunks.push(chunk);
    });
    response.on("error", (error: unknown) => this.#fail(error));
    response.on("aborted", () => this.#fail(new TypeError("response aborted")));
    response.on("end", () => this.#onEnd(response));
  }

  #onEnd(response: http.IncomingMessage): void {
    if (this.#settled) return;
    let result: BufferedResponse;
    try {
      const chunks = this.#chunks;
      const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const decoded = decodeBody(raw, response.headers["content-encoding"]);
      const headers = new BufferedHeaders(response.rawHeaders);
      if (decoded !== raw) {
        headers.delete("content-encoding");
        headers.delete("content-length");
      }
      result = new BufferedResponse(
        response.statusCode ?? 500,
        response.statusMessage ?? "",
        headers,
        this.href,
        decoded,
      );
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#settle();
    this.resolve(result as unknown as Response);
  }

  #settle(): void {
    this.#settled = true;
    if (this.#onAbort) this.signal?.removeEventListener("abort", this.#onAbort);
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settle();
    this.reject(error);
  }
}

function abortError(signal: AbortSignal | undefined): unknown {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("This operation was aborted", "AbortError");
}

/**
 * The request headers as node:http's flat list, names lower-cased (as fetch does), with the
 * encodings this fetch decodes, the body's length, and Host unless the caller gave one.
 */
function headerList(
  headers: RequestInit["headers"],
  host: string,
  body: Buffer | undefined,
): string[] {
  const out: string[] = [];
  if (headers instanceof Headers) {
    for (const [key, value] of headers) out.push(key.toLowerCase(), value);
  } else if (Array.isArray(headers)) {
    for (const [key, value] of headers) {
      if (key !== undefined && value !== undefined) out.push(key.toLowerCase(), value);
    }
  } else if (headers) {
    for (const [key, value] of Object.entries(headers)) {
      out.push(key.toLowerCase(), typeof value === "string" ? value : value.join(", "));
    }
  }
  let hasHost = false;
  let kept = 0;
  for (let i = 0; i < out.length; i += 2) {
    const name = out[i] as string;
    // Set below: the caller's value would be a second copy on the wire.
    if (name === "accept-encoding" || (body !== undefined && name === "content-length")) continue;
    if (name === "host") hasHost = true;
    out[kept++] = name;
    out[kept++] = out[i + 1] as string;
  }
  out.length = kept;
  // Compressed bodies are decoded in Exchange; ask for the cheap ones only.
  out.push("accept-encoding", "gzip, deflate");
  if (body !== undefined) out.push("content-length", String(body.byteLength));
  if (!hasHost) out.push("host", host);
  return out;
}

/** Request bodies are encoded into slices of shared slabs, as Buffer's own pool does for small strings. */
const SLAB_BYTES = 256 * 1024;
let slab: Buffer | undefined;
let slabOffset = 0;

/**
 * A string's UTF-8 bytes, encoded once. Passing the string on costs three passes over it
 * (Buffer.byteLength for content-length, node:http prepending the header block to it, the socket
 * encoding the result) and puts two more copies of a prompt-sized string on the JS heap per call.
 * Buffer.from would allocate a backing store per body, which costs twice the encoding itself; a
 * slice of a slab costs one allocation per few dozen bodies. A slab lives as long as any of its
 * slices (until those requests are written and collected).
 */
function encodeUtf8(text: string): Buffer {
  const maxBytes = text.length * 3; // UTF-16 code units -> at most 3 UTF-8 bytes each
  if (maxBytes > SLAB_BYTES / 4) return Buffer.from(text, "utf8");
  if (slab === undefined || slabOffset + maxBytes > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabOffset = 0;
  }
  const written = slab.write(text, slabOffset, "utf8");
  const bytes = slab.subarray(slabOffset, slabOffset + written);
  slabOffset = (slabOffset + written + 7) & ~7;
  return bytes;
}

/** String bodies as UTF-8 (see encodeUtf8); binary bodies as a view. */
function requestBody(body: RequestInit["body"]): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return encodeUtf8(body);
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

/** A response body past `maxBodyBytes`: the call fails with this as its cause, read no further. */
export class ResponseTooLargeError extends Error {
  override readonly name = "ResponseTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`response body over ${maxBytes} bytes`);
  }
}
