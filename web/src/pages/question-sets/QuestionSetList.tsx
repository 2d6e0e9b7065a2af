import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCan } from "../../api/session";
import { Link } from "@tanstack/react-router";
import { api, must } from "../../api/client";
import { saveAnswerAsFile } from "../../api/save-file";
import { questionSetsKey, useQuestionSets } from "../../api/queries";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ListTable } from "../../components/ListTable";

/** Seed 003's QuestionSetList. */
export function QuestionSetList() {
  const { t, language } = useI18n();
  const sets = useQuestionSets();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) =>
      must(api.DELETE("/api/v1/question-sets/{id}", { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: questionSetsKey }),
  });
  const download = useMutation({
    mutationFn: async ({ id, format }: { id: string; format: "csv" | "jsonl" }) =>
      saveAnswerAsFile(
        await api.GET("/api/v1/question-sets/{id}/export", {
          params: { path: { id }, query: { format } },
          parseAs: "blob",
        }),
        `question-set.${format}`,
      ),
  });
  const writes = useCan("write");
  return (
    <section aria-labelledby="qs-title">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h1 id="qs-title">{t("qs.title")}</h1>
        {writes && (
          <Link className="button primary" to="/evaluations/question-sets/new">
            {t("qs.new")}
          </Link>
        )}
      </div>
      <ErrorNote error={sets.error ?? download.error} />
      <ErrorNote error={remove.error} />
      {sets.isPending && <p>{t("common.loading")}</p>}
      <ListTable
        items={sets.data}
        empty={t("qs.empty")}
        columns={[t("qs.name"), t("qs.description"), t("qs.questions"), t("qs.updated")]}
        actions={t("qs.actions")}
        row={(set) => (
          <tr key={set.id} data-testid="question-set-row">
            <td>
              <Link to="/evaluations/question-sets/$qsId" params={{ qsId: set.id }}>
                {set.name}
              </Link>
            </td>
            <td className="muted">{set.description ?? ""}</td>
            <td>{set.question_count ?? "—"}</td>
            <td>{formatDate(set.gmt_updated, language)}</td>
            <td>
              <div className="row" style={{ gap: "0.5rem" }}>
                {writes && (
                  <Link
                    to="/evaluations/new"
                    search={{ question_set: set.id }}
                    aria-label={`${t("qs.evaluate")}: ${set.name}`}
                  >
                    {t("qs.evaluate")}
                  </Link>
                )}
                {/* The server's export, a file the import reads back unchanged. */}
                {(["csv", "jsonl"] as const).map((format) => (
                  <a
                    key={format}
                    href={`/api/v1/question-sets/${set.id}/export?format=${format}`}
                    download
                    onClick={(event) => {
                      event.preventDefault();
                      download.mutate({ id: set.id, format });
                    }}
                    aria-label={t("qs.exportNamed", {
                      name: set.name,
                      format: format.toUpperCase(),
                    })}
                  >
                    {t("qs.exportAs", { format: format.toUpperCase() })}
                  </a>
                ))}
                {writes && (
                  <ConfirmButton
                    danger
                    label={t("qs.deleteNamed", { name: set.name })}
                    question={t("qs.confirmDelete", { name: set.name })}
                    disabled={remove.isPending && remove.variables === set.id}
                    onConfirm={() => remove.mutate(set.id)}
                  >
                    {t("list.delete")}
                  </ConfirmButton>
                )}
              </div>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
