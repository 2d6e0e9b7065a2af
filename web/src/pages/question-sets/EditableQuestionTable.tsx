import type { Dispatch } from "react";
import { useI18n } from "../../i18n/i18n";
import { QUESTION_TYPES } from "../../../../src/evals/questions/rules";
import { rowProblems, type TableAction, type TableState } from "./table-state";

/**
 * Seed 003's EditableQuestionTable: add, edit and delete rows inline, undo the last change; empty
 * questions and repeats are flagged in their row.
 */
export function EditableQuestionTable({
  state,
  dispatch,
}: {
  state: TableState;
  dispatch: Dispatch<TableAction>;
}) {
  const { t } = useI18n();
  const problems = rowProblems(state.rows);
  return (
    <section aria-labelledby="table-title">
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <h2 id="table-title">{t("table.count", { n: state.rows.length })}</h2>
        <div className="row">
          <button
            type="button"
            onClick={() => dispatch({ type: "undo" })}
            disabled={state.history.length === 0}
          >
            {t("table.undo")}
          </button>
          <button type="button" onClick={() => dispatch({ type: "add" })}>
            {t("table.add")}
          </button>
        </div>
      </div>
      <div className="table-scroll">
        <table data-testid="question-table">
          <thead>
            <tr>
              <th scope="col" style={{ width: "3em" }}>
                #
              </th>
              <th scope="col" style={{ width: "11em" }}>
                {t("table.type")}
              </th>
              <th scope="col">{t("table.question")}</th>
              <th scope="col">{t("table.groundTruth")}</th>
              <th scope="col" style={{ width: "6em" }}>
                <span className="visually-hidden">{t("common.delete")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {state.rows.map((row, index) => {
              const problem = problems.get(row.key);
              const problemText =
                problem?.kind === "empty"
                  ? t("table.empty")
                  : problem?.kind === "duplicate"
                    ? t("table.duplicate", { n: problem.of })
                    : undefined;
              const n = index + 1;
              return (
                <tr
                  key={row.key}
                  className={problem ? "flagged" : undefined}
                  data-testid="question-row"
                >
                  <td>{n}</td>
                  <td>
                    <select
                      aria-label={`${t("table.type")} ${n}`}
                      value={row.question_type}
                      onChange={(e) =>
                        dispatch({
                          type: "edit",
                          key: row.key,
                          field: "question_type",
                          value: e.target.value,
                        })
                      }
                    >
                      {QUESTION_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <textarea
                      className="cell"
                      rows={2}
                      aria-label={`${t("table.question")} ${n}`}
                      aria-invalid={problem !== undefined}
                      aria-describedby={problem ? `problem-${row.key}` : undefined}
                      value={row.question_text}
                      onChange={(e) =>
                        dispatch({
                          type: "edit",
                          key: row.key,
                          field: "question_text",
                          value: e.target.value,
                        })
                      }
                    />
                    {problemText && (
                      <div
                        id={`problem-${row.key}`}
                        className="field-error"
                        data-testid="row-problem"
                      >
                        {problemText}
                      </div>
                    )}
                  </td>
                  <td>
                    <textarea
                      className="cell"
                      rows={2}
                      aria-label={`${t("table.groundTruth")} ${n}`}
                      value={row.ground_truth}
                      onChange={(e) =>
                        dispatch({
                          type: "edit",
                          key: row.key,
                          field: "ground_truth",
                          value: e.target.value,
                        })
                      }
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="danger"
                      aria-label={t("table.remove", { n })}
                      onClick={() => dispatch({ type: "remove", key: row.key })}
                    >
                      {t("common.delete")}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
