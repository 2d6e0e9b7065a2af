import { type FormEvent, useReducer, useState } from "react";
import { useI18n } from "../../i18n/i18n";
import { EditableQuestionTable } from "./EditableQuestionTable";
import { FileUploadParser } from "./FileUploadParser";
import { QuestionGenerationModal } from "./QuestionGenerationModal";
import { FormSubmit } from "../../components/FormSubmit";
import { initialTable, rowProblems, tableReducer, type TableRow } from "./table-state";

export interface EditorValue {
  name: string;
  description: string;
  collection_id: string | null;
  rows: TableRow[];
}

/**
 * Seed 003's QuestionSetEditor: the set's name and description, the editable table, a file
 * parsed in the browser and generation from a collection; saving is refused while a row is bad.
 */
export function QuestionSetEditor({
  initial,
  onSave,
  saving,
}: {
  initial: Omit<EditorValue, "rows"> & { rows: Omit<TableRow, "key">[] };
  onSave: (value: EditorValue) => void;
  saving: boolean;
}) {
  const { t } = useI18n();
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description);
  const [collectionId, setCollectionId] = useState(initial.collection_id);
  const [table, dispatch] = useReducer(tableReducer, initial.rows, initialTable);
  const [generating, setGenerating] = useState(false);
  const [problem, setProblem] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setProblem(t("qs.nameRequired"));
    if (rowProblems(table.rows).size > 0) return setProblem(t("qs.fixRows"));
    setProblem(undefined);
    onSave({ name: name.trim(), description, collection_id: collectionId, rows: table.rows });
  };

  // The modal holds a form of its own, so it sits beside this form, never inside it.
  return (
    <>
      <form onSubmit={submit} noValidate>
        <div className="row">
          <label style={{ minWidth: "20em" }}>
            {t("qs.name")}
            <input name="name" value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <label style={{ flex: 1 }}>
            {t("qs.description")}
            <input
              name="description"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </label>
        </div>
        <div className="row" style={{ alignItems: "flex-start", marginTop: "0.5rem" }}>
          <div style={{ flex: 1, minWidth: 320 }}>
            <FileUploadParser onParsed={(questions) => dispatch({ type: "append", questions })} />
          </div>
          <div>
            <h2>{t("gen.title")}</h2>
            <button type="button" onClick={() => setGenerating(true)}>
              {t("gen.open")}
            </button>
          </div>
        </div>
        <EditableQuestionTable state={table} dispatch={dispatch} />
        <FormSubmit error={problem} pending={saving} label={t("qs.save")} />
      </form>
      <QuestionGenerationModal
        open={generating}
        onClose={() => setGenerating(false)}
        {...(collectionId ? { defaultCollection: collectionId } : {})}
        onGenerated={(questions, collection) => {
          dispatch({ type: "append", questions });
          setCollectionId((current) => current ?? collection);
        }}
      />
    </>
  );
}
