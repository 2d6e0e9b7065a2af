// What a worker keeps per run while it has items of it: the run's row and snapshot, its bot and
// its clients, built once per run (and again after a pause, whose resume may change the snapshot).

import type { LlmClients } from "../../llm/index.js";
import type { EvaluationRow } from "../../store/index.js";
import { type Bot, createRunBot, type RunBotDeps } from "../bots/index.js";
import { type EvaluationSnapshot, EvaluationSnapshotSchema } from "./config.js";

export interface RunContext {
  row: EvaluationRow;
  snapshot: EvaluationSnapshot;
  bot: Bot;
  clients: Partial<LlmClients>;
}

export interface RunContextsOptions extends Omit<RunBotDeps, "clients"> {
  /** The configured roles' clients for a workspace (with its response cache unless noCache). */
  clientsFor(workspaceId: string, options: { noCache: boolean }): Partial<LlmClients>;
}

export interface RunContexts {
  /** The run's context, built at its first item; a failed build is forgotten, so the next item retries. */
  contextFor(row: EvaluationRow): Promise<RunContext>;
  /** The context being built or built for a run, if any. */
  cached(evaluationId: string): Promise<RunContext> | undefined;
  /** Forget a run that left RUNNING: a resume may bring a new snapshot. */
  drop(evaluationId: string): void;
}

export function runContexts(options: RunContextsOptions): RunContexts {
  const contexts = new Map<string, Promise<RunContext>>();
  return {
    contextFor(row) {
      let context = contexts.get(row.id);
      if (!context) {
        context = (async () => {
          const snapshot = EvaluationSnapshotSchema.parse(row.config);
          const clients = options.clientsFor(row.workspace_id, { noCache: snapshot.no_cache });
          const bot = await createRunBot(
            {
              workspaceId: row.workspace_id,
              bot: snapshot.bot,
              submittedVia: snapshot.submitted_via,
              collectionId: snapshot.collection_id,
              rag: snapshot.rag,
              gate: snapshot.gate,
              judges: snapshot.judges_config,
            },
            { ...options, clients },
          );
          return { row, snapshot, clients, bot };
        })();
        contexts.set(row.id, context);
        context.catch(() => contexts.delete(row.id));
      }
      return context;
    },
    cached: (evaluationId) => contexts.get(evaluationId),
    drop: (evaluationId) => void contexts.delete(evaluationId),
  };
}
