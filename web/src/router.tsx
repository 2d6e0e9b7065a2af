import type { QueryClient } from "@tanstack/react-query";
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
} from "@tanstack/react-router";
import { AppShell } from "./pages/app-shell/AppShell";
import { EvaluationsLayout } from "./pages/evaluations/EvaluationsLayout";
import { filtersFromSearch, searchFromFilters } from "./pages/evaluation-detail/filters";
import { EVALUATION_STATUSES, type EvaluationStatus } from "./api/types";
import { filtersFromSearch as answerFiltersFromSearch } from "./pages/production/filters";
import { monitorSearchFrom } from "./pages/monitor/monitor-search";
import { parseSearch, stringifySearch } from "./search-params";

// Seed 003 section 6.1's routes. Search values are validated here so every page reads typed
// search params; pages other than the first are loaded when first visited.

// The URL's numbers and true/false arrive as such (search-params.ts): as text they are the same.
const text = (value: unknown) => {
  const s = typeof value === "number" || typeof value === "boolean" ? String(value) : value;
  return typeof s === "string" && s.trim() !== "" ? s.trim() : undefined;
};

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: AppShell,
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/evaluations/list" });
  },
});

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/login",
  validateSearch: (search: Record<string, unknown>): { next?: string; error?: string } => ({
    ...(text(search.next) ? { next: text(search.next) } : {}),
    ...(text(search.error) ? { error: text(search.error) } : {}),
  }),
  component: lazyRouteComponent(() => import("./pages/login/LoginPage"), "LoginPage"),
});

export const evaluationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/evaluations",
  component: EvaluationsLayout,
});

const evaluationsIndexRoute = createRoute({
  getParentRoute: () => evaluationsRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/evaluations/list" });
  },
});

export const evaluationListRoute = createRoute({
  getParentRoute: () => evaluationsRoute,
  path: "/list",
  validateSearch: (search: Record<string, unknown>): { status?: EvaluationStatus } => {
    const status = text(search.status)?.toUpperCase();
    return (EVALUATION_STATUSES as readonly string[]).includes(status ?? "")
      ? { status: status as EvaluationStatus }
      : {};
  },
  component: lazyRouteComponent(
    () => import("./pages/evaluation-list/EvaluationList"),
    "EvaluationList",
  ),
});

export const newEvaluationRoute = createRoute({
  getParentRoute: () => evaluationsRoute,
  path: "/new",
  validateSearch: (search: Record<string, unknown>): { question_set?: string } =>
    text(search.question_set) ? { question_set: text(search.question_set) } : {},
  component: lazyRouteComponent(
    () => import("./pages/evaluation-new/NewEvaluationPage"),
    "NewEvaluationPage",
  ),
});

export const compareRoute = createRoute({
  getParentRoute: () => evaluationsRoute,
  path: "/compare",
  validateSearch: (
    search: Record<string, unknown>,
  ): { base?: string; head?: string; changed?: boolean } => ({
    ...(text(search.base) ? { base: text(search.base) } : {}),
    ...(text(search.head) ? { head: text(search.head) } : {}),
    ...(search.changed === true || search.changed === "true" || search.changed === "1"
      ? { changed: true }
      : {}),
  }),
  component: lazyRouteComponent(() => import("./pages/compare/ComparePage"), "ComparePage"),
});

export const questionSetListRoute = createRoute({
  getParentRoute: () => evaluationsRoute,
  path: "/question-sets",
  component: lazyRouteComponent(
    () => import("./pages/question-sets/QuestionSetList"),
    "QuestionSetList",
  ),
});

export const newQuestionSetRoute = createRoute({
  getParentRoute: () => evaluationsRoute,
  path: "/question-sets/new",
  component: lazyRouteComponent(
    () => import("./pages/question-sets/QuestionSetPage"),
    "NewQuestionSetPage",
  ),
});

export const questionSetRoute = createRoute({
  getParentRoute: () => evaluationsRoute,
  path: "/question-sets/$qsId",
  // The two versions the versions panel compares, so a diff can be shared or reloaded.
  validateSearch: (search: Record<string, unknown>): { from?: number; to?: number } => {
    const version = (value: unknown) => {
      const n = Number(value);
      return Number.isInteger(n) && n >= 1 ? n : undefined;
    };
    const from = version(search.from);
    const to = version(search.to);
    return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  },
  component: lazyRouteComponent(
    () => import("./pages/question-sets/QuestionSetPage"),
    "QuestionSetPage",
  ),
});

export const evaluationDetailRoute = createRoute({
  getParentRoute: () => evaluationsRoute,
  path: "/$evalId",
  validateSearch: (search: Record<string, unknown>) => searchFromFilters(filtersFromSearch(search)),
  component: lazyRouteComponent(
    () => import("./pages/evaluation-detail/EvaluationDetailPage"),
    "EvaluationDetailPage",
  ),
});

const LABEL_SCALES = ["1-10", "1-5", "pass_fail"] as const;

export const evaluationLabelRoute = createRoute({
  getParentRoute: () => evaluationsRoute,
  path: "/$evalId/label",
  validateSearch: (
    search: Record<string, unknown>,
  ): { result?: string; scale?: (typeof LABEL_SCALES)[number] } => ({
    ...(text(search.result) ? { result: text(search.result) } : {}),
    ...((LABEL_SCALES as readonly unknown[]).includes(search.scale)
      ? { scale: search.scale as (typeof LABEL_SCALES)[number] }
      : {}),
  }),
  component: lazyRouteComponent(() => import("./pages/evaluation-label/LabelPage"), "LabelPage"),
});

export const collectionsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/collections",
  validateSearch: (search: Record<string, unknown>): { id?: string } =>
    text(search.id) ? { id: text(search.id) } : {},
  component: lazyRouteComponent(
    () => import("./pages/collections/CollectionsPage"),
    "CollectionsPage",
  ),
});

export const arenasRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/arenas",
  component: lazyRouteComponent(() => import("./pages/arenas/ArenasLayout"), "ArenasLayout"),
});

export const arenaListRoute = createRoute({
  getParentRoute: () => arenasRoute,
  path: "/",
  component: lazyRouteComponent(() => import("./pages/arenas/ArenaList"), "ArenaList"),
});

export const newArenaRoute = createRoute({
  getParentRoute: () => arenasRoute,
  path: "/new",
  component: lazyRouteComponent(() => import("./pages/arenas/NewArenaPage"), "NewArenaPage"),
});

export const arenaDetailRoute = createRoute({
  getParentRoute: () => arenasRoute,
  path: "/$arenaId",
  component: lazyRouteComponent(() => import("./pages/arenas/ArenaDetailPage"), "ArenaDetailPage"),
});

export const queuesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/queues",
  component: lazyRouteComponent(() => import("./pages/queues/QueuesLayout"), "QueuesLayout"),
});

export const queueListRoute = createRoute({
  getParentRoute: () => queuesRoute,
  path: "/",
  component: lazyRouteComponent(() => import("./pages/queues/QueueList"), "QueueList"),
});

export const queueRoute = createRoute({
  getParentRoute: () => queuesRoute,
  path: "/$queueId",
  component: lazyRouteComponent(() => import("./pages/queues/QueuePage"), "QueuePage"),
});

export const queueReviewRoute = createRoute({
  getParentRoute: () => queuesRoute,
  path: "/$queueId/review",
  component: lazyRouteComponent(() => import("./pages/queues/ReviewPage"), "ReviewPage"),
});

export const productionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/production",
  component: lazyRouteComponent(
    () => import("./pages/production/ProductionLayout"),
    "ProductionLayout",
  ),
});

const productionIndexRoute = createRoute({
  getParentRoute: () => productionRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/production/answers" });
  },
});

export const answerListRoute = createRoute({
  getParentRoute: () => productionRoute,
  path: "/answers",
  validateSearch: (search: Record<string, unknown>) => answerFiltersFromSearch(search),
  component: lazyRouteComponent(() => import("./pages/production/AnswerList"), "AnswerList"),
});

export const answerRoute = createRoute({
  getParentRoute: () => productionRoute,
  path: "/answers/$answerId",
  component: lazyRouteComponent(() => import("./pages/production/AnswerPage"), "AnswerPage"),
});

export const monitorRoute = createRoute({
  getParentRoute: () => productionRoute,
  path: "/monitor",
  validateSearch: (search: Record<string, unknown>) => monitorSearchFrom(search),
  component: lazyRouteComponent(() => import("./pages/monitor/MonitorPage"), "MonitorPage"),
});

export const monitorsRoute = createRoute({
  getParentRoute: () => productionRoute,
  path: "/monitors",
  component: lazyRouteComponent(() => import("./pages/monitor/MonitorsPage"), "MonitorsPage"),
});

export const ingestKeysRoute = createRoute({
  getParentRoute: () => productionRoute,
  path: "/ingest-keys",
  component: lazyRouteComponent(
    () => import("./pages/production/IngestKeysPage"),
    "IngestKeysPage",
  ),
});

export const alertRulesRoute = createRoute({
  getParentRoute: () => productionRoute,
  path: "/alerts",
  component: lazyRouteComponent(() => import("./pages/alerts/AlertRulesPage"), "AlertRulesPage"),
});

export const alertRuleRoute = createRoute({
  getParentRoute: () => productionRoute,
  path: "/alerts/$ruleId",
  component: lazyRouteComponent(() => import("./pages/alerts/AlertRulePage"), "AlertRulePage"),
});

export const membersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/members",
  component: lazyRouteComponent(() => import("./pages/members/MembersPage"), "MembersPage"),
});

const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  evaluationsRoute.addChildren([
    evaluationsIndexRoute,
    evaluationListRoute,
    newEvaluationRoute,
    compareRoute,
    questionSetListRoute,
    newQuestionSetRoute,
    questionSetRoute,
    evaluationDetailRoute,
    evaluationLabelRoute,
  ]),
  collectionsRoute,
  membersRoute,
  arenasRoute.addChildren([arenaListRoute, newArenaRoute, arenaDetailRoute]),
  queuesRoute.addChildren([queueListRoute, queueRoute, queueReviewRoute]),
  productionRoute.addChildren([
    productionIndexRoute,
    answerListRoute,
    answerRoute,
    monitorRoute,
    monitorsRoute,
    ingestKeysRoute,
    alertRulesRoute,
    alertRuleRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  context: { queryClient: undefined as unknown as QueryClient },
  // Plain values in the address bar (`?min=0.9`), and older JSON-quoted links still read.
  parseSearch,
  stringifySearch,
  defaultPreload: "intent",
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
