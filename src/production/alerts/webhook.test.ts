import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type AlertNotice, alertBody, alertText, deliverAlert, signAlert } from "./webhook.js";

const notice: AlertNotice = {
  state: "firing",
  rule: {
    id: "4f7a2c1e-0000-4000-8000-000000000001",
    name: "Support pass rate",
    metric: "gate_pass_rate",
    judge: null,
    comparison: "below",
    threshold: 0.9,
    window_minutes: 15,
    min_count: 50,
    filter: { service: "support-bot" },
  },
  value: 0.625,
  count: 80,
  fired_at: new Date("2026-11-27T09:00:00Z"),
  resolved_at: null,
  link: "http://127.0.0.1:8787/production/alerts/4f7a2c1e-0000-4000-8000-000000000001",
};

describe("alertText", () => {
  it("says the rule, the value, the threshold, the window and the link in plain words", () => {
    expect(alertText(notice)).toBe(
      'Alert "Support pass rate" is firing: the gate pass rate is 62.5%, below the threshold of 90%, ' +
        "over the last 15 minutes (service support-bot), 80 answers. " +
        "http://127.0.0.1:8787/production/alerts/4f7a2c1e-0000-4000-8000-000000000001",
    );
    expect(
      alertText({
        ...notice,
        state: "resolved",
        rule: {
          ...notice.rule,
          metric: "latency_p95_ms",
          comparison: "above",
          threshold: 2000,
          window_minutes: 120,
          filter: {},
        },
        value: 1234.4,
        link: null,
      }),
    ).toBe(
      'Alert "Support pass rate" is resolved: the 95th percentile latency is 1234 ms (threshold: above 2000 ms), over the last 2 hours, 80 answers with a latency.',
    );
  });

  it("names the judge whose mean a judge_mean rule watches", () => {
    expect(
      alertText({
        ...notice,
        rule: { ...notice.rule, metric: "judge_mean", judge: "offline", threshold: 0.6 },
        value: 0.4,
        count: 12,
        link: null,
      }),
    ).toBe(
      'Alert "Support pass rate" is firing: the mean score of the offline judge is 40%, below the threshold of 60%, ' +
        "over the last 15 minutes (service support-bot), 12 judged answers.",
    );
  });

  it("puts the text in the JSON body beside the numbers", () => {
    const body = JSON.parse(alertBody(notice)) as Record<string, unknown>;
    expect(body).toMatchObject({
      text: alertText(notice),
      state: "firing",
      value: 0.625,
      count: 80,
    });
  });
});

describe("signAlert", () => {
  it("is v1= and the hex HMAC-SHA256 of timestamp.body", () => {
    const expected = createHmac("sha256", "rjw_s").update('1700000000.{"a":1}').digest("hex");
    expect(signAlert("rjw_s", 1_700_000_000, '{"a":1}')).toBe(`v1=${expected}`);
  });
});

describe("deliverAlert", () => {
  const clock = () => new Date("2026-11-27T09:00:00Z");
  const respond =
    (statuses: number[], seen: RequestInit[]) => async (_url: string, init: RequestInit) => {
      seen.push(init);
      return new Response("", { status: statuses.shift() ?? 200 });
    };

  it("backs off exponentially between retries of 5xx and 429, then reports the delivery", async () => {
    const seen: RequestInit[] = [];
    const waits: number[] = [];
    const delivery = await deliverAlert({
      fetch: respond([500, 429, 503], seen),
      url: "http://receiver/hook",
      secret: "rjw_s",
      body: "{}",
      options: { maxAttempts: 5, baseDelayMs: 100 },
      clock,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(waits).toEqual([100, 200, 400]);
    expect(delivery).toMatchObject({ attempts: 4, outcome: "delivered", status: 200 });
    expect((seen[0]?.headers as Record<string, string>)["x-ragjudge-signature"]).toBe(
      signAlert("rjw_s", 1_795_770_000, "{}"),
    );
  });

  it("does not retry a redirect (never followed) or another 4xx", async () => {
    for (const status of [301, 404]) {
      const seen: RequestInit[] = [];
      const delivery = await deliverAlert({
        fetch: respond([status], seen),
        url: "http://receiver/hook",
        secret: "rjw_s",
        body: "{}",
        clock,
        sleep: async () => {},
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.redirect).toBe("manual");
      expect(delivery).toMatchObject({ attempts: 1, outcome: "failed", status });
    }
  });

  it("stops at a refusal by the network policy, and gives up after the last try", async () => {
    const refusal = Object.assign(new Error("the bot network policy does not allow 10.0.0.1"), {
      code: "EBOTPOLICY",
    });
    const refused = await deliverAlert({
      fetch: async () => {
        throw new TypeError("fetch failed", { cause: refusal });
      },
      url: "http://receiver/hook",
      secret: "rjw_s",
      body: "{}",
      clock,
      sleep: async () => {},
    });
    expect(refused).toMatchObject({ attempts: 1, outcome: "refused", detail: refusal.message });
    const down = await deliverAlert({
      fetch: async () => {
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error(), { code: "ECONNREFUSED" }),
        });
      },
      url: "http://receiver/hook",
      secret: "rjw_s",
      body: "{}",
      options: { maxAttempts: 3 },
      clock,
      sleep: async () => {},
    });
    expect(down).toMatchObject({
      attempts: 3,
      outcome: "failed",
      detail: "could not connect (ECONNREFUSED)",
    });
  });

  it("stops trying once its signal aborts, and says why", async () => {
    const stopping = new AbortController();
    let tries = 0;
    const delivery = await deliverAlert({
      fetch: async () => {
        tries++;
        stopping.abort();
        return new Response("", { status: 503 });
      },
      url: "http://receiver/hook",
      secret: "rjw_s",
      body: "{}",
      clock,
      signal: stopping.signal,
    });
    expect(tries).toBe(1);
    expect(delivery).toMatchObject({
      attempts: 1,
      outcome: "failed",
      status: 503,
      detail: "ragjudge stopped before the notification was delivered",
    });
  });
});
