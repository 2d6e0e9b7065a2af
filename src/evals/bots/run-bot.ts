// The bot an evaluation run asks, built from what the run's snapshot says about it: the built-in
// bot over the run's collection, an HTTP bot (a plain URL or a registered bot with its owner's
// credential), or nothing to reach for a run of precomputed answers.

import type { LlmClients } from "../../llm/index.js";
import {
  type BuiltinBotOptions,
  createBuiltinBot,
  LONG_LIVED_BOT_CACHE_MS,
  type LoopsConfig,
  type ObservationsConfig,
} from "../../rag/index.js";
import { botCredential, type Db, type SecretKey, StoredSecretError } from "../../store/index.js";
import { builtinBotFor } from "./builtin-bot.js";
import { createHttpBot } from "./http-bot.js";
import { type BotNetworkConfig, OPEN_BOT_NETWORK, restrictedBotNetwork } from "./network-policy.js";
import { suppliedAnswerBot } from "./supplied-bot.js";
import { type Bot, BotError } from "./types.js";

/** What a run's snapshot says about its bot (evals/runs' SnapshotBot and the fields around it). */
export interface RunBotSpec {
  workspaceId: string;
  bot:
    | { kind: "builtin" }
    | {
        kind: "http";
        url: string;
        bot_id?: string | undefined;
        timeout_ms: number;
        retries: number;
      }
    | { kind: "answers" };
  /** `cli`: any address and the CLI's token; `api`: the operator's policy, no token. */
  submittedVia: "cli" | "api";
  collectionId: string | null;
  rag: { loops: LoopsConfig; retrieval: BuiltinBotOptions["retrieval"] };
  gate: BuiltinBotOptions["gate"];
  judges: BuiltinBotOptions["judges"];
}

/** What the worker holding the run brings: its database, the run's clients, the operator's settings. */
export interface RunBotDeps {
  db: Db;
  clients: Partial<LlmClients>;
  /** RAGJUDGE_BOT_TOKEN: sent to the plain-URL HTTP bots of CLI runs only. */
  botToken?: string | undefined;
  botNetwork?: Partial<BotNetworkConfig> | undefined;
  secretKey?: SecretKey | undefined;
  /** The worker's own observations file; the snapshot's path is the starter's. Default: none. */
  observations?: ObservationsConfig | undefined;
}

/** The bot a run asks. A run of precomputed answers gets a placeholder: each item brings its own. */
export async function createRunBot(spec: RunBotSpec, deps: RunBotDeps): Promise<Bot> {
  if (spec.bot.kind === "answers") return suppliedAnswerBot(null);
  if (spec.bot.kind === "http") return httpRunBot(spec, spec.bot, deps);
  const builtin = createBuiltinBot({
    db: deps.db,
    workspaceId: spec.workspaceId,
    llm: deps.clients,
    loops: {
      ...spec.rag.loops,
      observations: deps.observations ?? { ...spec.rag.loops.observations, path: null },
    },
    retrieval: spec.rag.retrieval,
    gate: spec.gate,
    judges: spec.judges,
    // A run measures the bot as it was: its own answers must not feed the memory source, or
    // results would depend on the order the questions ran in.
    observe: false,
    // A second is the longest a change to the collection during a run goes unseen.
    collectionCacheMs: LONG_LIVED_BOT_CACHE_MS,
  });
  return builtinBotFor(builtin, spec.collectionId ?? "");
}

/**
 * An HTTP bot as its run may reach it: a registered bot with its owner's credential (read here,
 * scoped by the run's workspace, and sent to that bot's URL only); a plain URL with the CLI's token
 * for a CLI run, with nothing for an API run. API runs go through the operator's network policy.
 */
async function httpRunBot(
  spec: RunBotSpec,
  bot: Extract<RunBotSpec["bot"], { kind: "http" }>,
  deps: RunBotDeps,
): Promise<Bot> {
  const fromCli = spec.submittedVia === "cli";
  let url = bot.url;
  let headers: Record<string, string> = {};
  if (bot.bot_id !== undefined) {
    let credential: Awaited<ReturnType<typeof botCredential>>;
    try {
      credential = await botCredential(deps.db, spec.workspaceId, bot.bot_id, deps.secretKey);
    } catch (error) {
      if (error instanceof StoredSecretError) return unavailableBot(error.message);
      throw error;
    }
    if (!credential) return unavailableBot(`the registered bot ${bot.bot_id} was deleted`);
    url = credential.url;
    if (credential.secret !== null) {
      headers = {
        [credential.secret_header]:
          credential.secret_header === "authorization"
            ? `Bearer ${credential.secret}`
            : credential.secret,
      };
    }
  } else if (fromCli && deps.botToken) {
    headers = { authorization: `Bearer ${deps.botToken}` };
  }
  return createHttpBot({
    url,
    timeoutMs: bot.timeout_ms,
    retries: bot.retries,
    headers,
    network: fromCli ? OPEN_BOT_NETWORK : restrictedBotNetwork(deps.botNetwork),
  });
}

/** A bot that cannot be asked at all: the run fails at its probe with `reason`. */
function unavailableBot(reason: string): Bot {
  const fail = () => Promise.reject(new BotError("unreachable", reason));
  return { describe: () => ({ kind: "http", name: "(unavailable)" }), ask: fail, probe: fail };
}
