import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentFetch } from "./http-fetch.js";

let server: http.Server;
let base: string;
const seen: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      if (req.url === "/gzip") {
        const payload = gzipSync(JSON.stringify({ echo: body }));
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(payload);
      } else if (req.url === "/stall") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"partial":');
      } else if (req.url === "/empty") {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(201, [
          ["content-type", "application/json"],
          ["x-multi", "a"],
          ["x-multi", "b"],
        ]);
        res.end(JSON.stringify({ echo: body }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const fetchLike = createAgentFetch({ maxSockets: 4 });

describe("createAgentFetch", () => {
  it("sends method, headers and body, and answers like a Response", async () => {
    const response = await fetchLike(`${base}/echo`, {
      method: "POST",
      headers: new Headers({ Authorization: "Bearer t", "Content-Type": "application/json" }),
      body: '{"x":"é"}',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    expect(response.headers.get("x-multi")).toBe("a, b");
    expect([...response.headers.entries()].some(([name]) => name === "x-multi")).toBe(true);
    expect(await response.json()).toEqual({ echo: '{"x":"é"}' });
    const headers = seen.at(-1);
    expect(headers?.authorization).toBe("Bearer t");
    expect(headers?.["content-length"]).toBe(String(Buffer.byteLength('{"x":"é"}')));
  });

  it("sends Host and keep-alive as node:http would, and a caller's Host as given", async () => {
    await fetchLike(`${base}/echo`, { method: "POST", body: "{}" });
    expect(seen.at(-1)?.host).toBe(new URL(base).host);
    expect(seen.at(-1)?.connection).toBe("keep-alive");
    await fetchLike(`${base}/echo`, {
      method: "POST",
      body: "{}",
      headers: { Host: "example.test" },
    });
    expect(seen.at(-1)?.host).toBe("example.test");
  });

  it("sends every body intact, small and large, ASCII or not, across many requests", async () => {
    const bodies = Array.from({ length: 120 }, (_, i) =>
      JSON.stringify({ i, text: `${"é…字😀 ".repeat(i * 37)}end` }),
    );
    bodies.push(JSON.stringify({ big: "x…".repeat(60_000) }));
    const echoed = await Promise.all(
      bodies.map(async (body) => {
        const response = await fetchLike(`${base}/echo`, { method: "POST", body });
        return ((await response.json()) as { echo: string }).echo;
      }),
    );
    expect(echoed).toEqual(bodies);
  });

  it("decodes gzip bodies and drops the encoding headers", async () => {
    const response = await fetchLike(`${base}/gzip`, { method: "POST", body: "zipped" });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(JSON.parse(await response.text())).toEqual({ echo: "zipped" });
  });

  it("handles bodiless statuses", async () => {
    const response = await fetchLike(`${base}/empty`, { headers: { Accept: "application/json" } });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("rejects with an AbortError when the signal fires mid-response", async () => {
    const error = await fetchLike(`${base}/stall`, { signal: AbortSignal.timeout(50) }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).name).toMatch(/AbortError|TimeoutError/);
    const aborted = await fetchLike(`${base}/echo`, { signal: AbortSignal.abort() }).catch(
      (e: unknown) => e,
    );
    expect((aborted as Error).name).toBe("AbortError");
  });

  it("rejects with a TypeError when the server is unreachable", async () => {
    const error = await fetchLike("http://127.0.0.1:1/v1", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
  });
});
