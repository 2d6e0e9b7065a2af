import { type Jobs, QUEUES, startWorkLoop, type WorkLoop } from "../../jobs/index.js";
import type { LlmClients } from "../../llm/index.js";
import {
  createBuiltinBot,
  LONG_LIVED_BOT_CACHE_MS,
  type ObservationsConfig,
} from "../../rag/index.js";
import {
  claimResults,
  type EvaluationRow,
  evaluationStatuses,
  finishResults,
  getEvaluationForWorker,
  groupCommit,
  recountEvaluation,
  releaseResult,
  reserveItemCost,
  type ResultClaim,
  settleItemCost,
  type ResultFinish,
  botCredential,
  type SecretKey,
  StoredSecretError,
  strandedPendingEvaluations,
  transitionEvaluation,
  unfinishedQuestionIds,
} from "../../store/index.js";
import {
  type Bot,
  type BotNetworkConfig,
  BotError,
  builtinBotFor,
  createHttpBot,
  OPEN_BOT_NETWORK,
  restrictedBotNetwork,
  suppliedAnswerBot,
} from "../bots/index.js";
import { type EvaluationSnapshot, EvaluationSnapshotSchema } from "./config.js";
import { ItemAbortedError, runItem } from "./run-item.js";
import { errorText, formatUsd, sleep } from "../../llm/index.js";

export interface ItemJob {
  evaluation_id: string;
  question_id: string;
}
export interface LaunchJob {
  evaluation_id: string;
}

export interface EvaluationWorkerOptions {
  jobs: Jobs;
  /** Items this process runs at once (default 16). */
  concurrency?: number;
  /** The configured roles' clients for a user (with that user's response cache unless noCache). */
  clientsFor(workspaceId: string, options: { noCache: boolean }): Partial<LlmClients>;
  /**
   * Sent as `Authorization: Bearer` to the plain-URL HTTP bots of runs started from the CLI
   * (RAGJUDGE_BOT_TOKEN); never stored, and never sent for a run an API user started.
   */
  botToken?: string;
  /** The operator's bot network policy, applied to runs started through the API (default: public addresses only). */
  botNetwork?: Partial<BotNetworkConfig>;
  /**
   * The operator's RAGJUDGE_SECRET_KEY, to open registered bots' encrypted secrets. Without it a
   * run of a bot whose secret is stored encrypted fails at its probe, saying so.
   */
  secretKey?: SecretKey;
  /**
   * Where and how this worker appends the built-in bot's observational_data.jsonl (seed 000) for
   * passing answers: the operator's `rag.loops.observations`. The path in a run's snapshot is the
   * starter's, which may not exist on this machine; default: no file. (Runs never add observations
   * to the database; see botOf.)
   */
  observations?: ObservationsConfig;
  /** How often in-flight runs are checked for pause and cancel (ms, default 250). */
  watchMs?: number;
  /** Consecutive unreachable-bot errors, with nothing scored yet, that fail a run (default 3). */
  failFastAfter?: number;
  onError?(error: unknown): void;
}

export interface EvaluationWorker {
  stop(): Promise<void>;
}

/** What a worker keeps per evaluation while it has items of it: the bot and the judge client. */
interface RunContext {
  row: EvaluationRow;
  snapshot: EvaluationSnapshot;
  bot: Bot;
  clients: Partial<LlmClients>;
}

/**
 * Seed 003's EvaluationTaskRunner as pg-boss workers: `evaluation-launch` starts a run (and fails
 * it fast when its bot cannot be reached), `evaluation-item` runs one question. Any number of
 * processes may run this against one database; each item's write is idempotent.
 */
export function startEvaluationWorker(options: EvaluationWorkerOptions): EvaluationWorker {
  const { jobs } = options;
  const db = jobs.store.db;
  const onError = options.onError ?? (() => {});
  const failFastAfter = options.failFastAfter ?? 3;
  const contexts = new Map<string, Promise<RunContext>>();
  let stopping = false;
  // Claims and result writes of items that end together go in one statement each (on PGlite
  // every statement costs the whole process CPU; on a server, a round trip).
  const lanes = jobs.store.kind === "pglite" ? 1 : 2;
  const claim = groupCommit((claims: ResultClaim[]) => claimResults(db, claims), { lanes });
  const finish = groupCommit((finishes: ResultFinish[]) => finishResults(db, finishes), { lanes });
  /** In-flight items per evaluation, aborted when it leaves RUNNING. */
  const inFlight = new Map<string, Set<AbortController>>();

  /**
   * An HTTP bot as its run may reach it: a registered bot with its owner's credential (read here,
   * scoped by the run's owner, and sent to that bot's URL only); a plain URL with the CLI's token
   * for a CLI run, with nothing for an API run. API runs go through the operator's network policy.
   */
  async function httpBotOf(
    row: EvaluationRow,
    snapshot: EvaluationSnapshot,
    bot: Extract<EvaluationSnapshot["bot"], { kind: "http" }>,
  ): Promise<Bot> {
    const fromCli = snapshot.submitted_via === "cli";
    let url = bot.url;
    let headers: Record<string, string> = {};
    if (bot.bot_id !== undefined) {
      let credential: Awaited<ReturnType<typeof botCredential>>;
      try {
        credential = await botCredential(db, row.workspace_id, bot.bot_id, options.secretKey);
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
    } else if (fromCli && options.botToken) {
      headers = { authorization: `Bearer ${options.botToken}` };
    }
    return createHttpBot({
      url,
      timeoutMs: bot.timeout_ms,
      retries: bot.retries,
      headers,
      network: fromCli ? OPEN_BOT_NETWORK : restrictedBotNetwork(options.botNetwork),
    });
  }

  async function botOf(
    row: EvaluationRow,
    snapshot: EvaluationSnapshot,
    clients: Partial<LlmClients>,
  ): Promise<Bot> {
    // A run of precomputed answers has no bot to reach: each item reads its own stored answer.
    if (snapshot.bot.kind === "answers") return suppliedAnswerBot(null);
    if (snapshot.bot.kind === "http") return httpBotOf(row, snapshot, snapshot.bot);
    const builtin = createBuiltinBot({
      db,
      workspaceId: row.workspace_id,
      llm: clients,
      loops: {
        ...snapshot.rag.loops,
        observations: options.observations ?? { ...snapshot.rag.loops.observations, path: null },
      },
      retrieval: snapshot.rag.retrieval,
      gate: snapshot.gate,
      judges: snapshot.judges_config,
      // A run measures the bot as it was: its own answers must not feed the memory source, or
      // results would depend on the order the questions ran in.
      observe: false,
      // A second is the longest a change to the collection during a run goes unseen.
      collectionCacheMs: LONG_LIVED_BOT_CACHE_MS,
    });
    return builtinBotFor(builtin, snapshot.collection_id ?? "");
  }

  function contextFor(row: EvaluationRow): Promise<RunContext> {
    let context = contexts.get(row.id);
    if (!context) {
      context = (async () => {
        const snapshot = EvaluationSnapshotSchema.parse(row.config);
        const clients = options.clientsFor(row.workspace_id, { noCache: snapshot.no_cache });
        return { row, snapshot, clients, bot: await botOf(row, snapshot, clients) };
      })();
      contexts.set(row.id, context);
      context.catch(() => contexts.delete(row.id));
    }
    return context;
  }

  async function launch(evaluationId: string): Promise<void> {
    let row = await getEvaluationForWorker(db, evaluationId);
    if (!row) return;
    if (row.status === "PENDING") {
      const { bot } = await contextFor(row);
      try {
        await bot.probe?.(AbortSignal.timeout(10_000));
      } catch (error) {
        const reason = errorText(error);
        await transitionEvaluation(db, row.id, ["PENDING"], "FAILED", {
          status_reason: `the bot cannot be reached: ${reason}`,
        });
        return;
      }
      row = (await transitionEvaluation(db, row.id, ["PENDING"], "RUNNING")) ?? row;
    }
    if (row.status !== "RUNNING") return;
    const ids = await unfinishedQuestionIds(db, row.id);
    if (ids.length === 0) {
      await recountEvaluation(db, row.id);
      return;
    }
    await jobs.send(
      QUEUES.evaluationItem,
      ids.map((question_id) => ({ evaluation_id: row.id, question_id }) satisfies ItemJob),
    );
  }

  async function claimItem(jobId: string, job: ItemJob) {
    // The claim itself checks that the run is RUNNING: a paused run's items stay PENDING (resume
    // enqueues them again) and a final run's are done, so the cached row may be stale.
    const cached = contexts.get(job.evaluation_id);
    const row = cached ? (await cached).row : await getEvaluationForWorker(db, job.evaluation_id);
    if (!row || (!cached && row.status !== "RUNNING")) return null;
    const item = { evaluationId: job.evaluation_id, questionId: job.question_id, jobId };
    const claimed = await claim(item);
    return claimed ? { row, item, claimed } : null;
  }

  /**
   * Items are claimed when fetched, a batch in one statement, so a slot that frees starts its next
   * item at once: claimed when the slot freed, an item waited behind the result writes in the
   * database (on PGlite about 7 ms of a 160 ms item). A claim holds the row for this job id only;
   * a fetched job that never starts (this worker stops) is retried under the same id.
   */
  const preclaims = new Map<string, ReturnType<typeof claimItem>>();
  function preclaim(fetched: { id: string; data: ItemJob }[]): void {
    for (const job of fetched) {
      const claimed = claimItem(job.id, job.data);
      claimed.catch(() => {}); // runOne awaits it and reports the error
      preclaims.set(job.id, claimed);
    }
  }

  async function runOne(jobId: string, job: ItemJob, release: () => void): Promise<void> {
    const preclaimed = preclaims.get(jobId);
    preclaims.delete(jobId);
    const claim = await (preclaimed ?? claimItem(jobId, job));
    if (!claim) return;
    const { row, item, claimed } = claim;
    // Claimed a moment ago at most; the run may have been paused or cancelled since (the watcher
    // then dropped its context). Its item goes back to PENDING, as in-flight ones do.
    if (preclaimed && !contexts.has(row.id)) {
      const now = await getEvaluationForWorker(db, row.id);
      if (now?.status !== "RUNNING") {
        await releaseResult(db, job.evaluation_id, job.question_id, jobId);
        return;
      }
    }
    const context = await contextFor(row);
    const controller = new AbortController();
    let set = inFlight.get(row.id);
    if (!set) inFlight.set(row.id, (set = new Set()));
    set.add(controller);
    const limit = context.snapshot.max_cost_usd;
    let reservedUsd = 0;
    let settled = false;
    try {
      if (limit !== null) {
        const reserved = await reserveWithin(row.id, limit, controller.signal);
        if (reserved === null) {
          // The run left RUNNING: a resume may bring a new limit, so its snapshot is read again.
          contexts.delete(row.id);
          await releaseResult(db, job.evaluation_id, job.question_id, jobId);
          return;
        }
        reservedUsd = reserved;
      }
      const { write, botError, cost } = await runItem({
        question: claimed,
        bot:
          context.snapshot.bot.kind === "answers"
            ? suppliedAnswerBot(claimed.supplied_answer)
            : context.bot,
        snapshot: context.snapshot,
        ...(context.clients.judge ? { judgeClient: context.clients.judge } : {}),
        signal: controller.signal,
      });
      // The bot and the judges are done: the next item may start while this one's result is
      // written (group-committed with others'), which keeps the write off the items' critical path.
      release();
      const outcome = await finish({ ...item, write });
      if (limit !== null) {
        settled = true;
        await settleItemCost(db, row.id, reservedUsd, outcome.written ? (cost?.cost_usd ?? 0) : 0);
        if (outcome.written && cost && cost.unpriced_models.length > 0) {
          // Tokens without a price cannot be held to a limit: say so rather than run on blind.
          await transitionEvaluation(db, row.id, ["RUNNING"], "PAUSED", {
            status_reason: `cost limit ${formatUsd(limit)} cannot be kept: no price for ${cost.unpriced_models.join(", ")} (add it under "prices" in the config)`,
          });
        }
      }
      const counts = outcome.evaluation;
      if (
        counts &&
        botError === "unreachable" &&
        counts.scored_questions === 0 &&
        counts.bot_error_count >= failFastAfter &&
        counts.bot_error_count === counts.completed_questions
      ) {
        await transitionEvaluation(db, row.id, ["RUNNING"], "FAILED", {
          status_reason: `the bot is unreachable: ${write.error}`,
        });
      }
      if (counts && counts.status !== "RUNNING") contexts.delete(row.id);
    } catch (error) {
      if (limit !== null && !settled) await settleItemCost(db, row.id, reservedUsd, null);
      await releaseResult(db, job.evaluation_id, job.question_id, jobId);
      // Aborted by pause or cancel: the item waits, PENDING, for resume. Aborted because this
      // worker stops: fail the job so pg-boss hands it to another worker.
      if (error instanceof ItemAbortedError && !stopping) return;
      throw error;
    } finally {
      set.delete(controller);
      if (set.size === 0) inFlight.delete(row.id);
    }
  }

  /**
   * Holds a conservative estimate of the item's cost against the run's limit before it starts
   * (store/evaluation-budget.ts). While items in flight hold the budget this one waits for them;
   * when nothing is in flight and the estimate still passes the limit, the run is paused, saying
   * so. Returns the USD reserved, or null when the item must not start.
   */
  async function reserveWithin(
    evaluationId: string,
    limitUsd: number,
    signal: AbortSignal,
  ): Promise<number | null> {
    const reason = `cost limit ${formatUsd(limitUsd)} reached: the next question could pass it`;
    for (;;) {
      if (signal.aborted) throw new ItemAbortedError("the run was paused or cancelled");
      const reservation = await reserveItemCost(db, evaluationId, limitUsd, reason);
      if (reservation.admitted) return reservation.reservedUsd;
      if (reservation.outcome !== "wait") return null;
      await sleep(options.watchMs ?? 250, signal).catch(() => {});
    }
  }

  // Pause and cancel are rows in the database, so they reach every machine: poll the statuses of
  // the runs this process has items of, and abort their calls when they leave RUNNING.
  const watcher = setInterval(() => {
    const ids = [...inFlight.keys()];
    if (ids.length === 0) return;
    evaluationStatuses(db, ids)
      .then((statuses) => {
        for (const id of ids) {
          if ((statuses.get(id) ?? "CANCELLED") === "RUNNING") continue;
          for (const controller of inFlight.get(id) ?? []) controller.abort();
          contexts.delete(id);
        }
      })
      .catch(onError);
  }, options.watchMs ?? 250);
  watcher.unref();

  // A run whose launch job was lost (a crash between creating it and sending the job) is found
  // still PENDING and launched again; launching is idempotent.
  const sweeper = setInterval(() => {
    strandedPendingEvaluations(db, 30_000)
      .then((ids) =>
        ids.length > 0
          ? jobs.send(
              QUEUES.evaluationLaunch,
              ids.map((evaluation_id) => ({ evaluation_id })),
            )
          : undefined,
      )
      .catch(onError);
  }, 15_000);
  sweeper.unref();

  const loops: WorkLoop[] = [
    startWorkLoop<LaunchJob>(jobs, {
      queue: QUEUES.evaluationLaunch,
      concurrency: 2,
      handle: (job) => launch(job.data.evaluation_id),
      onError,
    }),
    startWorkLoop<ItemJob>(jobs, {
      queue: QUEUES.evaluationItem,
      concurrency: options.concurrency ?? 16,
      handle: (job) => runOne(job.id, job.data, job.release),
      onFetched: preclaim,
      onError,
    }),
  ];

  return {
    async stop() {
      stopping = true;
      clearInterval(watcher);
      clearInterval(sweeper);
      for (const set of inFlight.values()) for (const controller of set) controller.abort();
      await Promise.all(loops.map((loop) => loop.stop()));
      preclaims.clear();
    },
  };
}

/** A bot that cannot be asked at all: the run fails at its probe with `reason`. */
function unavailableBot(reason: string): Bot {
  const fail = () => Promise.reject(new BotError("unreachable", reason));
  return { describe: () => ({ kind: "http", name: "(unavailable)" }), ask: fail, probe: fail };
}
