import type { AnyRouteSpec } from "../route.js";
import { botApi } from "./bots.js";
import { evaluationApi } from "./evaluations.js";
import { gateApi } from "./gate.js";
import { judgeApi } from "./judge.js";
import { metaApi } from "./meta.js";
import { questionSetApi } from "./question-sets.js";
import { ragApi } from "./rag.js";
import { sessionApi } from "./session.js";

export { botRoutes } from "./bots.js";
export { evaluationRoutes } from "./evaluations.js";
export { gateRoutes } from "./gate.js";
export { judgeRoutes } from "./judge.js";
export { metaApi } from "./meta.js";
export { questionSetRoutes } from "./question-sets.js";
export { ragRoutes } from "./rag.js";
export { loginLinkRoute, sessionLoginRoute, sessionRoutes } from "./session.js";

/** Every API route the server mounts, as declared: what the OpenAPI document is built from. */
export const API_ROUTES: readonly AnyRouteSpec[] = [
  ...Object.values(metaApi),
  ...Object.values(sessionApi),
  ...Object.values(gateApi),
  ...Object.values(judgeApi),
  ...Object.values(ragApi),
  ...Object.values(questionSetApi),
  ...Object.values(evaluationApi),
  ...Object.values(botApi),
] as readonly AnyRouteSpec[];
