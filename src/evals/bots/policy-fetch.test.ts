import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { restrictedBotNetwork } from "./network-policy.js";
import { createPolicyFetch } from "./policy-fetch.js";

let server: ReturnType<typeof createServer>;
let port = 0;
let requests = 0;

beforeAll(async () => {
  server = createServer((_request, response) => {
    requests++;
    response.statusCode = 302;
    response.setHeader("location", "http://127.0.0.1:1/elsewhere");
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const code = (error: unknown) =>
  (error as { code?: string; cause?: { code?: string } }).code ??
  (error as { cause?: { code?: string } }).cause?.code;

it("refuses an address the policy does not allow, as an IP literal and behind a host name", async () => {
  const fetch = createPolicyFetch(restrictedBotNetwork({}));
  await expect(fetch(`http://127.0.0.1:${port}/`, { method: "POST" })).rejects.toSatisfy(
    (error) => code(error) === "EBOTPOLICY",
  );
  await expect(fetch(`http://localhost:${port}/`, { method: "POST" })).rejects.toSatisfy(
    (error) => code(error) === "EBOTPOLICY",
  );
  expect(requests).toBe(0);
});

it("reaches an allowed address and does not follow its redirect", async () => {
  const fetch = createPolicyFetch(restrictedBotNetwork({ allow_networks: ["127.0.0.1/32"] }));
  const response = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" });
  expect(response.status).toBe(302);
  expect(requests).toBe(1);
});
