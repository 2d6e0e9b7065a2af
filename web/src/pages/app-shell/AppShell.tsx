import { useQueryClient } from "@tanstack/react-query";
import { Link, Outlet, useNavigate, useRouterState } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { api } from "../../api/client";
import { roleCan, useSession } from "../../api/session";
import { forgetWorkspaceChoice, takeLostWorkspaceNotice } from "../../api/workspace-choice";
import { useI18n } from "../../i18n/i18n";
import { WorkspaceSwitcher } from "./WorkspaceSwitcher";

/** Pages that need no read access (the queues one labels in, members, login): the rest read runs. */
const PAGES_WITHOUT_READ = /^\/(members|login|queues)(\/|$)/;

/** The top bar (sections, workspace, language switch, sign out) around every page. */
export function AppShell() {
  const { t, language, setLanguage } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const location = useRouterState({ select: (s) => s.location });
  const onLogin = location.pathname === "/login";
  const session = useSession(!onLogin);
  const [lostWorkspace, setLostWorkspace] = useState(takeLostWorkspaceNotice);
  const reads = !session.data || roleCan(session.data.workspace.role, "read");

  // Any 401 from the API means the session is gone: go to the login page, then come back.
  useEffect(() => {
    const toLogin = () => {
      if (window.location.pathname === "/login") return;
      const next = window.location.pathname + window.location.search;
      queryClient.clear();
      void navigate({ to: "/login", search: { next } });
    };
    window.addEventListener("ragjudge:unauthorized", toLogin);
    return () => window.removeEventListener("ragjudge:unauthorized", toLogin);
  }, [navigate, queryClient]);

  const logout = async () => {
    await api.DELETE("/api/v1/session", {});
    forgetWorkspaceChoice();
    queryClient.clear();
    await navigate({ to: "/login", search: {} });
  };

  // Pages do not wait for the role (one more round trip before every page): what a role cannot
  // do disappears when the session arrives, and a page a role cannot read gives way to one sentence.
  let page = <Outlet />;
  if (!onLogin && !reads && !PAGES_WITHOUT_READ.test(location.pathname)) {
    page = (
      <main id="main" tabIndex={-1}>
        <p data-testid="annotator-note">{t("ws.annotatorOnly")}</p>
      </main>
    );
  }

  return (
    <>
      <a className="skip-link" href="#main">
        {t("app.skip")}
      </a>
      <header className="topbar">
        <span className="brand">{t("app.title")}</span>
        {!onLogin && (
          <nav aria-label="main">
            {reads && (
              <>
                <Link
                  to="/evaluations/list"
                  activeProps={{ className: "active" }}
                  activeOptions={{ exact: false }}
                >
                  {t("nav.evaluations")}
                </Link>
                <Link to="/collections" activeProps={{ className: "active" }}>
                  {t("nav.collections")}
                </Link>
                <Link
                  to="/arenas"
                  activeProps={{ className: "active" }}
                  activeOptions={{ exact: false }}
                >
                  {t("nav.arenas")}
                </Link>
                <Link
                  to="/production/answers"
                  activeProps={{ className: "active" }}
                  activeOptions={{ exact: false }}
                >
                  {t("nav.production")}
                </Link>
              </>
            )}
            {/* Annotators work here: the one page besides Members they can read. */}
            <Link
              to="/queues"
              activeProps={{ className: "active" }}
              activeOptions={{ exact: false }}
            >
              {t("nav.queues")}
            </Link>
            <Link to="/members" activeProps={{ className: "active" }}>
              {t("nav.members")}
            </Link>
          </nav>
        )}
        {!onLogin && session.data && <WorkspaceSwitcher session={session.data} />}
        {onLogin && <span style={{ flex: 1 }} />}
        <button
          type="button"
          lang={language === "zh" ? "en" : "zh"}
          aria-label={t("nav.languageLabel")}
          onClick={() => setLanguage(language === "zh" ? "en" : "zh")}
        >
          {t("nav.language")}
        </button>
        {!onLogin && (
          <button type="button" onClick={() => void logout()}>
            {t("nav.logout")}
          </button>
        )}
      </header>
      {lostWorkspace && (
        <p className="notice workspace-lost" role="status">
          {t("ws.lost")}{" "}
          <button type="button" onClick={() => setLostWorkspace(false)}>
            {t("common.close")}
          </button>
        </p>
      )}
      {page}
    </>
  );
}
