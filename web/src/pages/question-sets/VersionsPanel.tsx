import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { api, must } from "../../api/client";
import type { components } from "../../api/schema";
import { questionSetsKey } from "../../api/queries";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";

type Version = components["schemas"]["QuestionSetVersionList"]["items"][number];
type Diff = components["schemas"]["QuestionSetVersionDiff"];
type VersionQuestion = Diff["added"][number];

const ROUTE = "/evaluations/question-sets/$qsId";

/** What made a version, in the reader's words. */
function changeText(version: Version, t: ReturnType<typeof useI18n>["t"]): string {
  if (version.change === "restored") {
    return t("versions.change.restored", { n: version.restored_from ?? "?" });
  }
  return t(`versions.change.${version.change}` as MessageKey);
}

/**
 * The set's versions (issue 28 §3): who made each and when, two picked to diff (kept in the URL),
 * a CSV of any version, and restore of an old one as a new version.
 */
export function VersionsPanel({ questionSetId }: { questionSetId: string }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const navigate = useNavigate({ from: ROUTE });
  const search = useSearch({ from: ROUTE });
  const path = { params: { path: { id: questionSetId } } };
  const versions = useQuery({
    queryKey: ["question-set", questionSetId, "versions"],
    queryFn: () => must(api.GET("/api/v1/question-sets/{id}/versions", path)),
  });
  const items = versions.data?.items ?? [];
  const latest = items[0]?.number;
  // By default: the newest version against the one before it.
  const to = search.to ?? latest;
  const from = search.from ?? (latest !== undefined && latest > 1 ? latest - 1 : latest);
  const diff = useQuery({
    queryKey: ["question-set", questionSetId, "diff", from, to],
    enabled: from !== undefined && to !== undefined && from !== to,
    queryFn: () =>
      must(
        api.GET("/api/v1/question-sets/{id}/diff", {
          params: { path: { id: questionSetId }, query: { from: from ?? 1, to: to ?? 1 } },
        }),
      ),
  });
  const restore = useMutation({
    mutationFn: (number: number) =>
      must(
        api.POST("/api/v1/question-sets/{id}/versions/{number}/restore", {
          params: { path: { id: questionSetId, number } },
        }),
      ),
    onSuccess: (version) => {
      void navigate({ search: { from: version.restored_from ?? undefined, to: version.number } });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ["question-set", questionSetId] });
      void queryClient.invalidateQueries({ queryKey: questionSetsKey });
    },
  });
  const pick = (side: "from" | "to", number: number) =>
    void navigate({ search: { from, to, [side]: number }, replace: true });

  return (
    <section aria-labelledby="versions-title" data-testid="versions-panel">
      <h2 id="versions-title">{t("versions.title")}</h2>
      <p className="muted">{t("versions.intro")}</p>
      <ErrorNote error={versions.error} />
      <ErrorNote error={restore.error} />
      {restore.data && !restore.isPending && (
        <p className="notice good" role="status">
          {t("versions.restored", {
            n: restore.data.restored_from ?? restore.variables,
            m: restore.data.number,
          })}
        </p>
      )}
      {items.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("versions.from")}</th>
                <th scope="col">{t("versions.to")}</th>
                <th scope="col">{t("versions.number")}</th>
                <th scope="col">{t("versions.change")}</th>
                <th scope="col">{t("versions.by")}</th>
                <th scope="col">{t("versions.when")}</th>
                <th scope="col">{t("versions.questions")}</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {items.map((v) => (
                <tr key={v.id} data-testid={`version-${v.number}`}>
                  <td>
                    <input
                      type="radio"
                      name="version-from"
                      aria-label={t("versions.fromNamed", { n: v.number })}
                      checked={from === v.number}
                      onChange={() => pick("from", v.number)}
                    />
                  </td>
                  <td>
                    <input
                      type="radio"
                      name="version-to"
                      aria-label={t("versions.toNamed", { n: v.number })}
                      checked={to === v.number}
                      onChange={() => pick("to", v.number)}
                    />
                  </td>
                  <td>
                    {t("versions.label", { n: v.number })}
                    {v.number === latest && (
                      <span className="muted"> ({t("versions.latest")})</span>
                    )}
                  </td>
                  <td>{changeText(v, t)}</td>
                  <td>{v.created_by_name ?? t("versions.unknownUser")}</td>
                  <td>{formatDate(v.created_at, language)}</td>
                  <td>{v.question_count}</td>
                  <td>
                    <div className="row" style={{ gap: "0.5rem" }}>
                      <a
                        href={`/api/v1/question-sets/${questionSetId}/export?format=csv&version=${v.number}`}
                        download
                        aria-label={t("versions.downloadNamed", { n: v.number })}
                      >
                        {t("versions.download")}
                      </a>
                      {v.number !== latest && (
                        <button
                          type="button"
                          aria-label={t("versions.restoreNamed", { n: v.number })}
                          disabled={restore.isPending}
                          onClick={() => {
                            if (window.confirm(t("versions.confirmRestore", { n: v.number }))) {
                              restore.mutate(v.number);
                            }
                          }}
                        >
                          {t("versions.restore")}
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ErrorNote error={diff.error} />
      {diff.data && from !== to && <VersionDiffView diff={diff.data} />}
    </section>
  );
}

function Question({ q }: { q: VersionQuestion }) {
  const { t } = useI18n();
  const references = q.ground_truths ?? (q.ground_truth ? [q.ground_truth] : []);
  return (
    <>
      <span>{q.question_text}</span>
      {references.length > 0 && (
        <span className="muted">
          {" "}
          · {t("versions.reference")}: {references.join(" | ")}
        </span>
      )}
    </>
  );
}

/** Added, removed and changed questions between two versions, before beside after. */
function VersionDiffView({ diff }: { diff: Diff }) {
  const { t } = useI18n();
  const empty = diff.added.length + diff.removed.length + diff.changed.length === 0;
  return (
    <div data-testid="version-diff">
      <h3>{t("versions.diffTitle", { from: diff.from.number, to: diff.to.number })}</h3>
      <p role="status">
        {empty
          ? t("versions.noChange")
          : t("versions.diffSummary", {
              added: diff.added.length,
              removed: diff.removed.length,
              changed: diff.changed.length,
              unchanged: diff.unchanged,
            })}
      </p>
      {diff.added.length > 0 && (
        <>
          <h4>{t("versions.added")}</h4>
          <ul data-testid="diff-added">
            {diff.added.map((q) => (
              <li key={q.id} className="diff-added">
                <Question q={q} />
              </li>
            ))}
          </ul>
        </>
      )}
      {diff.removed.length > 0 && (
        <>
          <h4>{t("versions.removed")}</h4>
          <ul data-testid="diff-removed">
            {diff.removed.map((q) => (
              <li key={q.id} className="diff-removed">
                <Question q={q} />
              </li>
            ))}
          </ul>
        </>
      )}
      {diff.changed.length > 0 && (
        <>
          <h4>{t("versions.changed")}</h4>
          <table data-testid="diff-changed">
            <thead>
              <tr>
                <th scope="col">{t("versions.change")}</th>
                <th scope="col">{t("versions.before")}</th>
                <th scope="col">{t("versions.after")}</th>
              </tr>
            </thead>
            <tbody>
              {diff.changed.map((c) => (
                <tr key={c.after.id}>
                  <td>{c.fields.map((f) => t(`versions.field.${f}` as MessageKey)).join(", ")}</td>
                  <td className="diff-removed">
                    <Question q={c.before} />
                  </td>
                  <td className="diff-added">
                    <Question q={c.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
