// Issue 12 §1.2: an API user must not make the server fetch internal addresses, nor receive the
// operator's bot token or another user's bot credential. The receiver is a real HTTP bot on
// 127.0.0.1 that records every request and its Authorization header.

import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import type { BotNetworkConfig } from "../src/evals/bots/index.js";
import { type EvaluationWorker, startEvaluationWorker } from "../src/evals/runs/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { createApp } from "../src/server/index.js";
import {
  createApiToken,
  findOrCreateUser,
  queryRows,
  SecretKey,
  sealStoredSecrets,
} from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";
import { startTestBot, type TestBot } from "./support/test-bot.js";

const OPERATOR_TOKEN = "operator-bot-token-0123456789";
const QUESTIONS = [
  { question_type: "FACTUAL", question_text: "When did Line 1 open?", ground_truth: "2009." },
  { question_type: "FACTUAL", question_text: "How long is the ferry?", ground_truth: "35 min." },
];
const LOOPBACK_ALLOWED: BotNetworkConfig = {
  allow_hosts: [],
  allow_networks: ["127.0.0.1/32"],
  allow_public: true,
};

/** The operator's RAGJUDGE_SECRET_KEY for these servers and workers. */
const SECRET_KEY = SecretKey.fromText(randomBytes(32).toString("base64"));

interface Evaluation {
  id: string;
  status: string;
  status_reason: string | null;
  scored_questions: number;
}

describeEachStore("HTTP API: bots and the bot network policy", (use) => {
  let jobs: Jobs;
  let receiver: TestBot;
  // Requests go through Hono's app.request(), in process: no socket is needed here.
  /** The default server: public addresses only. */
  let strict: ReturnType<typeof createApp>;
  /** A server whose operator allows 127.0.0.1/32 and set RAGJUDGE_SECRET_KEY. */
  let allowing: ReturnType<typeof createApp>;
  /** The same without RAGJUDGE_SECRET_KEY. */
  let allowingNoKey: ReturnType<typeof createApp>;
  let worker: EvaluationWorker | undefined;

  beforeAll(async () => {
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
    strict = createApp({ db: use().db, jobs });
    allowing = createApp({
      db: use().db,
      jobs,
      config: { bots: LOOPBACK_ALLOWED },
      secretKey: SECRET_KEY,
    });
    allowingNoKey = createApp({ db: use().db, jobs, config: { bots: LOOPBACK_ALLOWED } });
    receiver = await startTestBot({ delayMs: 5 });
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await receiver.close();
    await jobs.stop();
  });

  /**
   * A worker holding the operator's token, as `ragjudge serve` with RAGJUDGE_BOT_TOKEN set, and
   * (unless told otherwise) RAGJUDGE_SECRET_KEY.
   */
  const startWorker = (
    botNetwork?: BotNetworkConfig,
    /** null: a worker started without RAGJUDGE_SECRET_KEY. */
    secretKey: SecretKey | null = SECRET_KEY,
  ) =>
    (worker = startEvaluationWorker({
      jobs,
      clientsFor: () => ({}),
      watchMs: 50,
      botToken: OPERATOR_TOKEN,
      ...(botNetwork ? { botNetwork } : {}),
      ...(secretKey ? { secretKey } : {}),
    }));

  const call = (
    app: ReturnType<typeof createApp>,
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const json = async <T>(response: Response | Promise<Response>) =>
    (await (await response).json()) as T;

  async function userWithSet(name: string) {
    const { db } = use();
    const user = await findOrCreateUser(db, name);
    const token = await createApiToken(db, user.id);
    const set = await json<{ id: string }>(
      call(strict, token, "POST", "/question-sets", { name: `${name}-set`, questions: QUESTIONS }),
    );
    return { id: user.id, token, setId: set.id };
  }

  const waitFor = (token: string, id: string) =>
    vi.waitFor(
      async () => {
        const row = await json<Evaluation>(call(strict, token, "GET", `/evaluations/${id}`));
        expect(["COMPLETED", "FAILED", "CANCELLED"]).toContain(row.status);
        return row;
      },
      { timeout: 60_000, interval: 100 },
    );

  const requestsSeen = () => receiver.requests;

  it("refuses a loopback bot URL with a 400 naming the policy; the receiver gets nothing", async () => {
    const mallory = await userWithSet("mallory");
    startWorker();
    const before = requestsSeen();
    for (const url of [receiver.url, receiver.url.replace("127.0.0.1", "localhost")]) {
      const response = await call(strict, mallory.token, "POST", "/evaluations", {
        question_set_id: mallory.setId,
        bot: { kind: "http", url },
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { message: string; issues: { path: string }[] };
      expect(body.issues[0]?.path).toBe("bot.url");
      expect(body.message).toMatch(
        /bot network policy does not allow .*loopback.*bots\.allow_networks/,
      );
    }
    const internal = await call(strict, mallory.token, "POST", "/evaluations", {
      question_set_id: mallory.setId,
      bot: { kind: "http", url: "http://169.254.169.254/latest/meta-data/" },
    });
    expect(internal.status).toBe(400);
    const registered = await call(strict, mallory.token, "POST", "/bots", {
      name: "internal",
      url: receiver.url,
    });
    expect(registered.status).toBe(400);
    expect(((await registered.json()) as { message: string }).message).toMatch(
      /bot network policy/,
    );
    // A refused request stores nothing: no run and no bot exist that could reach the receiver
    // later, so what it has seen now is all it will see.
    const runs = await call(strict, mallory.token, "GET", "/evaluations");
    expect(((await runs.json()) as { items: unknown[] }).items).toEqual([]);
    const bots = await call(strict, mallory.token, "GET", "/bots");
    expect(((await bots.json()) as { items: unknown[] }).items).toEqual([]);
    expect(requestsSeen()).toBe(before);
    expect(receiver.byAuthorization.get(`Bearer ${OPERATOR_TOKEN}`) ?? 0).toBe(0);
  });

  it("checks again at connect time: a run accepted under one policy is refused by a stricter worker", async () => {
    // Stands for a name that resolved to a public address when the run was submitted and to
    // 127.0.0.1 when the worker connects (DNS rebinding): the worker's own check decides.
    const mallory = await userWithSet("mallory-rebind");
    const before = requestsSeen();
    const started = await call(allowing, mallory.token, "POST", "/evaluations", {
      question_set_id: mallory.setId,
      bot: { kind: "http", url: receiver.url, retries: 0 },
    });
    expect(started.status).toBe(201);
    startWorker();
    const run = await waitFor(mallory.token, ((await started.json()) as Evaluation).id);
    expect(run.status).toBe("FAILED");
    expect(run.status_reason).toMatch(/bot network policy does not allow 127\.0\.0\.1/);
    expect(requestsSeen()).toBe(before);
  });

  it("runs a registered bot the operator allows, sending its owner's secret and never the operator's token", async () => {
    const alice = await userWithSet("alice");
    startWorker(LOOPBACK_ALLOWED);
    const secret = "alice-bot-secret-9f8e7d6c5b4a";
    const created = await call(allowing, alice.token, "POST", "/bots", {
      name: "alice-rag",
      url: receiver.url,
      secret,
    });
    expect(created.status).toBe(201);
    const bot = (await created.json()) as Record<string, unknown>;
    expect(bot).toMatchObject({ name: "alice-rag", url: receiver.url, has_secret: true });
    expect(JSON.stringify(bot)).not.toContain(secret);
    const listed = await json<{ items: unknown[] }>(call(allowing, alice.token, "GET", "/bots"));
    expect(listed.items).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const started = await call(allowing, alice.token, "POST", "/evaluations", {
      question_set_id: alice.setId,
      bot: { kind: "http", bot_id: bot.id },
    });
    expect(started.status).toBe(201);
    const id = ((await started.json()) as Evaluation).id;
    const run = await waitFor(alice.token, id);
    expect(run).toMatchObject({ status: "COMPLETED", scored_questions: 2 });
    expect(receiver.byAuthorization.get(`Bearer ${secret}`)).toBe(2);
    expect(receiver.byAuthorization.get(`Bearer ${OPERATOR_TOKEN}`) ?? 0).toBe(0);
    const detail = await (await call(allowing, alice.token, "GET", `/evaluations/${id}`)).text();
    expect(detail).not.toContain(secret);
    expect(detail).toContain('"submitted_via":"api"');
  });

  it("never sends user A's credentials for user B, and hides A's bots from B", async () => {
    const alice = await userWithSet("alice-b");
    const bob = await userWithSet("bob");
    startWorker(LOOPBACK_ALLOWED);
    const secret = "alice-only-secret-1a2b3c4d5e";
    const bot = await json<{ id: string }>(
      call(allowing, alice.token, "POST", "/bots", {
        name: "alice-rag",
        url: receiver.url,
        secret,
      }),
    );
    // A's bot id is as missing to B as a made-up one: 404 to read, delete or run.
    expect((await call(allowing, bob.token, "GET", `/bots/${bot.id}`)).status).toBe(404);
    expect((await call(allowing, bob.token, "DELETE", `/bots/${bot.id}`)).status).toBe(404);
    const stolen = await call(allowing, bob.token, "POST", "/evaluations", {
      question_set_id: bob.setId,
      bot: { kind: "http", bot_id: bot.id },
    });
    expect(stolen.status).toBe(404);
    expect(await json<{ items: unknown[] }>(call(allowing, bob.token, "GET", "/bots"))).toEqual({
      items: [],
    });

    // B's plain-URL run to the same bot goes out bare: no A secret, no operator token.
    const anonymousBefore = receiver.byAuthorization.get("") ?? 0;
    const started = await call(allowing, bob.token, "POST", "/evaluations", {
      question_set_id: bob.setId,
      bot: { kind: "http", url: receiver.url },
    });
    expect(started.status).toBe(201);
    const run = await waitFor(bob.token, ((await started.json()) as Evaluation).id);
    expect(run.status).toBe("COMPLETED");
    expect(receiver.byAuthorization.get("")).toBe(anonymousBefore + 2);
    expect(receiver.byAuthorization.get(`Bearer ${OPERATOR_TOKEN}`) ?? 0).toBe(0);
    expect(receiver.byAuthorization.get(`Bearer ${secret}`) ?? 0).toBe(0);

    expect((await call(allowing, alice.token, "DELETE", `/bots/${bot.id}`)).status).toBe(204);
    expect((await call(allowing, alice.token, "GET", `/bots/${bot.id}`)).status).toBe(404);
  });

  it("answers a malformed bot URL with a 400 naming url on /bots, /evaluations and /arenas", async () => {
    const mallory = await userWithSet("mallory-urls");
    const malformed = ["not a url", "http://[::1", "http://[::1%25lo]:80/"];
    for (const url of malformed) {
      const routes: Array<[string, unknown, string]> = [
        ["/bots", { name: "bad", url }, "url"],
        ["/evaluations", { question_set_id: mallory.setId, bot: { kind: "http", url } }, "bot.url"],
        [
          "/arenas",
          {
            question_set_id: mallory.setId,
            contestants: [
              { name: "a", bot: { kind: "http", url } },
              { name: "b", bot: { kind: "builtin" } },
            ],
          },
          "contestants.0.bot.url",
        ],
      ];
      for (const [path, body, field] of routes) {
        const response = await call(strict, mallory.token, "POST", path, body);
        expect(response.status, `${path} ${url}`).toBe(400);
        const answer = (await response.json()) as { issues: { path: string; message: string }[] };
        expect(answer.issues, `${path} ${url}`).toContainEqual({
          path: field,
          message: "an http(s) URL",
        });
      }
    }
  });

  it("refuses IPv4-compatible IPv6 bot URLs (::127.0.0.1, ::169.254.169.254) on every route", async () => {
    const mallory = await userWithSet("mallory-v6");
    const port = new URL(receiver.url).port;
    const before = requestsSeen();
    for (const host of ["[::7f00:1]", "[::127.0.0.1]", "[::a9fe:a9fe]"]) {
      const url = `http://${host}:${port}/ask`;
      const bot = await call(strict, mallory.token, "POST", "/bots", { name: "v6", url });
      const run = await call(strict, mallory.token, "POST", "/evaluations", {
        question_set_id: mallory.setId,
        bot: { kind: "http", url },
      });
      for (const [response, field] of [
        [bot, "url"],
        [run, "bot.url"],
      ] as const) {
        expect(response.status, url).toBe(400);
        const body = (await response.json()) as { message: string; issues: { path: string }[] };
        expect(body.issues[0]?.path).toBe(field);
        expect(body.message).toMatch(/a deprecated IPv4-compatible IPv6 address/);
      }
    }
    expect(requestsSeen()).toBe(before);
  });

  it("refuses a secret an HTTP header cannot carry, with a 400 naming secret", async () => {
    const mallory = await userWithSet("mallory-secret");
    const bad: Array<[string, RegExp]> = [
      ["line-one\r\nx-injected: yes", /line break at character 9/],
      ["token\n", /line break at character 6/],
      ["票价-secret-0123456789", /character 1 is beyond U\+00FF/],
      ["emoji-\u{1F600}-secret", /character 7 is beyond U\+00FF/],
      ["bell-\u0007-secret", /control character at character 6/],
      [" padded-secret ", /spaces at either end/],
    ];
    for (const [secret, message] of bad) {
      const response = await call(allowing, mallory.token, "POST", "/bots", {
        name: "bad-secret",
        url: receiver.url,
        secret,
      });
      expect(response.status, JSON.stringify(secret)).toBe(400);
      const body = (await response.json()) as { issues: { path: string; message: string }[] };
      expect(body.issues).toHaveLength(1);
      expect(body.issues[0]?.path).toBe("secret");
      expect(body.issues[0]?.message).toMatch(message);
      expect(JSON.stringify(body)).not.toContain(secret.trim());
    }
    // Latin-1 and printable ASCII are what a header carries: accepted.
    const fine = await call(allowing, mallory.token, "POST", "/bots", {
      name: "fine-secret",
      url: receiver.url,
      secret: "Grüße-ß-é-0123456789 ~!",
    });
    expect(fine.status).toBe(201);
  });

  /** The bots table's secret column as stored, by bot name. */
  const storedSecrets = async () =>
    new Map(
      (
        await queryRows<{ name: string; secret: string | null }>(
          use().db,
          sql`select name, secret from bots order by name`,
        )
      ).map((row) => [row.name, row.secret]),
    );

  async function runBot(token: string, setId: string, botId: string) {
    const started = await call(allowing, token, "POST", "/evaluations", {
      question_set_id: setId,
      bot: { kind: "http", bot_id: botId, retries: 0 },
    });
    expect(started.status).toBe(201);
    return waitFor(token, ((await started.json()) as Evaluation).id);
  }

  it("stores a secret encrypted with RAGJUDGE_SECRET_KEY, never as given, and still sends it", async () => {
    const alice = await userWithSet("alice-sealed");
    startWorker(LOOPBACK_ALLOWED);
    const secret = "alice-sealed-secret-5e4d3c2b1a";
    const bot = await json<{ id: string }>(
      call(allowing, alice.token, "POST", "/bots", { name: "sealed", url: receiver.url, secret }),
    );
    const stored = (await storedSecrets()).get("sealed") ?? "";
    expect(stored).toMatch(/^rjsec1\./);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(Buffer.from(secret).toString("base64url").slice(0, 12));

    const run = await runBot(alice.token, alice.setId, bot.id);
    expect(run).toMatchObject({ status: "COMPLETED", scored_questions: 2 });
    expect(receiver.byAuthorization.get(`Bearer ${secret}`)).toBe(2);
  });

  it("refuses to store a secret without RAGJUDGE_SECRET_KEY once the database has several users", async () => {
    const alice = await userWithSet("alice-alone");
    // One user (the local user's own store): a secret without a key is kept as given.
    const alone = await call(allowingNoKey, alice.token, "POST", "/bots", {
      name: "alone",
      url: receiver.url,
      secret: "alice-alone-secret-0a1b2c3d",
    });
    expect(alone.status).toBe(201);
    expect((await storedSecrets()).get("alone")).toBe("alice-alone-secret-0a1b2c3d");

    await userWithSet("bob-arrives");
    const refused = await call(allowingNoKey, alice.token, "POST", "/bots", {
      name: "shared",
      url: receiver.url,
      secret: "alice-shared-secret-4e5f6a7b",
    });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as {
      error: string;
      message: string;
      issues: { path: string; message: string }[];
    };
    expect(body.error).toBe("secret_key_required");
    expect(body.issues).toEqual([{ path: "secret", message: body.message }]);
    expect(body.message).toMatch(
      /several users.*stores bot secrets only encrypted.*RAGJUDGE_SECRET_KEY.*without a secret/,
    );
    expect(body.message).not.toContain("alice-shared-secret");
    expect((await storedSecrets()).has("shared")).toBe(false);
    // A bot without a secret needs no key; the key makes the secret welcome again.
    expect(
      (
        await call(allowingNoKey, alice.token, "POST", "/bots", {
          name: "bare",
          url: receiver.url,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call(allowing, alice.token, "POST", "/bots", {
          name: "shared",
          url: receiver.url,
          secret: "alice-shared-secret-4e5f6a7b",
        })
      ).status,
    ).toBe(201);
  });

  it("reads a secret stored before the key was set, and encrypts it at start-up", async () => {
    const alice = await userWithSet("alice-legacy");
    startWorker(LOOPBACK_ALLOWED);
    const secret = "alice-legacy-secret-8c9d0e1f";
    const bot = await json<{ id: string }>(
      call(allowingNoKey, alice.token, "POST", "/bots", {
        name: "legacy",
        url: receiver.url,
        secret,
      }),
    );
    expect((await storedSecrets()).get("legacy")).toBe(secret);
    expect(await runBot(alice.token, alice.setId, bot.id)).toMatchObject({ status: "COMPLETED" });
    expect(receiver.byAuthorization.get(`Bearer ${secret}`)).toBe(2);

    // What `ragjudge serve` and `ragjudge worker` do first when RAGJUDGE_SECRET_KEY is set.
    expect(await sealStoredSecrets(use().db, SECRET_KEY)).toBe(1);
    expect(await sealStoredSecrets(use().db, SECRET_KEY)).toBe(0);
    const stored = (await storedSecrets()).get("legacy") ?? "";
    expect(stored).toMatch(/^rjsec1\./);
    expect(stored).not.toContain(secret);
    expect(await runBot(alice.token, alice.setId, bot.id)).toMatchObject({ status: "COMPLETED" });
    expect(receiver.byAuthorization.get(`Bearer ${secret}`)).toBe(4);
  });

  it("fails a run at its probe when the worker has no key for an encrypted secret, saying why", async () => {
    const alice = await userWithSet("alice-nokey");
    startWorker(LOOPBACK_ALLOWED, null);
    const secret = "alice-nokey-secret-2f3e4d5c";
    const bot = await json<{ id: string }>(
      call(allowing, alice.token, "POST", "/bots", { name: "nokey", url: receiver.url, secret }),
    );
    const before = requestsSeen();
    const run = await runBot(alice.token, alice.setId, bot.id);
    expect(run.status).toBe("FAILED");
    expect(run.status_reason).toMatch(
      /secret is stored encrypted and this process has no RAGJUDGE_SECRET_KEY/,
    );
    expect(run.status_reason).not.toContain(secret);
    expect(requestsSeen()).toBe(before);
  });
});
