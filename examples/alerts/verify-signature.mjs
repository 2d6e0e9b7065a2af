// A webhook receiver's check that an alert came from ragjudge (docs/production.md, "Alerts"):
// the HMAC-SHA256 of "<timestamp>.<raw body>" under the rule's secret, at most 5 minutes old.
// test/alerts.test.ts verifies real deliveries with it.

import { Buffer } from "node:buffer";
import { createHmac, timingSafeEqual } from "node:crypto";

export function verifyRagjudgeAlert(secret, headers, rawBody, nowMs = Date.now()) {
  const timestamp = headers["x-ragjudge-timestamp"];
  const signature = headers["x-ragjudge-signature"];
  if (typeof timestamp !== "string" || typeof signature !== "string") return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > 300) return false; // a replayed old call
  const expected =
    "v1=" + createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
  return (
    signature.length === expected.length &&
    timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  );
}
