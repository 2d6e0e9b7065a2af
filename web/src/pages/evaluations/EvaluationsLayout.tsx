import { Link, Outlet, useParams } from "@tanstack/react-router";
import { useCan } from "../../api/session";
import { useI18n } from "../../i18n/i18n";

/** `/evaluations` with its secondary navigation (seed 003 section 6.1). */
export function EvaluationsLayout() {
  const { t } = useI18n();
  const writes = useCan("write");
  const labels = useCan("label");
  // On a run's pages, its labelling view is one step away.
  const { evalId } = useParams({ strict: false });
  return (
    <>
      <nav className="subnav" aria-label={t("nav.evaluations")}>
        <Link to="/evaluations/list" activeProps={{ className: "active" }}>
          {t("nav.list")}
        </Link>
        {writes && (
          <Link to="/evaluations/new" activeProps={{ className: "active" }}>
            {t("nav.new")}
          </Link>
        )}
        <Link
          to="/evaluations/question-sets"
          activeProps={{ className: "active" }}
          activeOptions={{ exact: false }}
        >
          {t("nav.questionSets")}
        </Link>
        <Link to="/evaluations/compare" activeProps={{ className: "active" }}>
          {t("nav.compare")}
        </Link>
        {evalId && labels && (
          <Link
            to="/evaluations/$evalId/label"
            params={{ evalId }}
            activeProps={{ className: "active" }}
          >
            {t("nav.label")}
          </Link>
        )}
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
