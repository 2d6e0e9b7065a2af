import type { AnyRouteSpec } from "../route.js";
import { alertApi } from "./alerts.js";
import { answerApi } from "./answers.js";
import { arenaApi } from "./arenas.js";
import { botApi } from "./bots.js";
import { evaluationApi } from "./evaluations.js";
import { gateApi } from "./gate.js";
import { ingestKeyApi } from "./ingest-keys.js";
import { judgeApi } from "./judge.js";
import { labelApi } from "./labels.js";
import { metaApi } from "./meta.js";
import { monitorApi } from "./monitors.js";
import { questionSetApi } from "./question-sets.js";
import { queueApi } from "./queues.js";
import { ragApi } from "./rag.js";
import { sessionApi } from "./session.js";
import { traceApi } from "./traces.js";
import { workspaceApi } from "./workspaces.js";

export { alertRoutes } from "./alerts.js";
export { answerRoutes } from "./answers.js";
export { arenaRoutes } from "./arenas.js";
export { botRoutes } from "./bots.js";
export { evaluationRoutes } from "./evaluations.js";
export { gateRoutes } from "./gate.js";
export { ingestKeyRoutes } from "./ingest-keys.js";
export { judgeRoutes } from "./judge.js";
export { labelRoutes } from "./labels.js";
export { llmStatusOf, metaApi } from "./meta.js";
export { monitorRoutes } from "./monitors.js";
export { questionSetRoutes } from "./question-sets.js";
export { queueRoutes } from "./queues.js";
export { ragRoutes } from "./rag.js";
export { loginLinkRoute } from "./login-link.js";
export { sessionLoginRoute, sessionRoutes } from "./session.js";
export { traceRoutes } from "./traces.js";
export { workspaceRoutes } from "./workspaces.js";
export { inviteRoute } from "./invite-link.js";

/** Every API route the server mounts, as declared: what the OpenAPI document is built from. */
export const API_ROUTES: readonly AnyRouteSpec[] = [
  ...Object.values(metaApi),
  ...Object.values(sessionApi),
  ...Object.values(workspaceApi),
  ...Object.values(gateApi),
  ...Object.values(answerApi),
  ...Object.values(traceApi),
  ...Object.values(ingestKeyApi),
  ...Object.values(alertApi),
  ...Object.values(monitorApi),
  ...Object.values(judgeApi),
  ...Object.values(ragApi),
  ...Object.values(questionSetApi),
  ...Object.values(evaluationApi),
  ...Object.values(labelApi),
  ...Object.values(botApi),
  ...Object.values(arenaApi),
  ...Object.values(queueApi),
] as readonly AnyRouteSpec[];
