import { Link, Outlet } from "@tanstack/react-router";
import { useI18n } from "../../i18n/i18n";

/** `/evaluations` with its secondary navigation (seed 003 section 6.1). */
export function EvaluationsLayout() {
  const { t } = useI18n();
  return (
    <>
      <nav className="subnav" aria-label={t("nav.evaluations")}>
        <Link to="/evaluations/list" activeProps={{ className: "active" }}>
          {t("nav.list")}
        </Link>
        <Link to="/evaluations/new" activeProps={{ className: "active" }}>
          {t("nav.new")}
        </Link>
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
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
