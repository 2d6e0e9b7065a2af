import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo, LookupFunction } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentFetch, FETCH_BLOCKED_PORTS, isResponseTooLarge } from "./http-fetch.js";

let server: http.Server;
let port = 0;
const seen: Array<{ url: string | undefined; headers: http.IncomingHttpHeaders }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      if (req.url === "/big") {
        res.writeHead(200, { "content-type": "application/json" });
        for (let i = 0; i < 8; i++) res.write(Buffer.alloc(1024, 0x61));
        res.end();
      } else if (req.url === "/stall") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"partial":');
      } else if (req.url === "/moved") {
        res.writeHead(302, { location: "/echo" });
        res.end();
      } else {
        res.writeHead(201, { "content-type": "application/json" });
        res.end(JSON.stringify({ echo: body }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A lookup that answers every name with one address, and counts its calls. */
function pinnedLookup(address: string): LookupFunction & { names: string[] } {
  const names: string[] = [];
  const lookup = ((hostname, options, callback) => {
    names.push(hostname);
    if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  }) as LookupFunction;
  return Object.assign(lookup, { names });
}

describe("createAgentFetch", () => {
  it("connects to the address its lookup returned, not the one public DNS would give", async () => {
    const lookup = pinnedLookup("127.0.0.1");
    const fetch = createAgentFetch({ lookup });
    // .invalid never resolves (RFC 6761): only the lookup can have sent this anywhere.
    const response = await fetch(`http://bot.invalid:${port}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: '{"x":"é"}',
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ echo: '{"x":"é"}' });
    expect(lookup.names).toEqual(["bot.invalid"]);
    expect(seen.at(-1)?.headers.host).toBe(`bot.invalid:${port}`);
    expect(seen.at(-1)?.headers.authorization).toBe("Bearer t");
  });

  it("sends nothing when the lookup refuses, and rejects with the lookup's error as the cause", async () => {
    const refusal = Object.assign(new Error("refused by policy"), { code: "EBOTPOLICY" });
    const fetch = createAgentFetch({
      lookup: ((_hostname, _options, callback) => callback(refusal, "", 0)) as LookupFunction,
    });
    const before = seen.length;
    const error = await fetch(`http://bot.invalid:${port}/echo`, { method: "POST" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).cause).toBe(refusal);
    expect(seen.length).toBe(before);
  });

  it("fails a body over maxBodyBytes, and reads one under it", async () => {
    const fetch = createAgentFetch({ maxBodyBytes: 4096 });
    const error = await fetch(`http://127.0.0.1:${port}/big`)
      .then((response) => response.text())
      .catch((e: unknown) => e);
    expect(isResponseTooLarge(error)).toBe(true);
    const small = await fetch(`http://127.0.0.1:${port}/echo`, { method: "POST", body: "ok" });
    expect(await small.json()).toEqual({ echo: "ok" });
    expect(isResponseTooLarge(new TypeError("fetch failed"))).toBe(false);
  });

  it("does not follow a redirect, even when the caller asks it to", async () => {
    const fetch = createAgentFetch();
    const before = seen.length;
    const response = await fetch(`http://127.0.0.1:${port}/moved`, { redirect: "follow" });
    expect(response.status).toBe(302);
    expect(seen.slice(before).map((s) => s.url)).toEqual(["/moved"]);
  });

  it("rejects with the signal's error when it fires while the body is still arriving", async () => {
    const fetch = createAgentFetch();
    const error = await fetch(`http://127.0.0.1:${port}/stall`, {
      signal: AbortSignal.timeout(50),
    })
      .then((response) => response.text())
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
    const aborted = await fetch(`http://127.0.0.1:${port}/echo`, {
      signal: AbortSignal.abort(),
    }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe("AbortError");
  });

  it("knows the ports undici's fetch refuses, as undici lists them", async () => {
    // undici's own list is internal (no declared export): read here only to keep the two equal.
    const { badPorts } = createRequire(import.meta.url)("undici/lib/web/fetch/constants.js") as {
      badPorts: readonly string[];
    };
    expect([...FETCH_BLOCKED_PORTS].map(String)).toEqual([...badPorts]);
    // Refused before any connection: the lookup is never asked.
    const lookup = pinnedLookup("127.0.0.1");
    const error = await createAgentFetch({ lookup })("http://bot.invalid:10080/").catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(lookup.names).toEqual([]);
  });
});
