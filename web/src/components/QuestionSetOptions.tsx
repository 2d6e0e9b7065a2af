import { useQuestionSets } from "../api/queries";
import { useI18n } from "../i18n/i18n";

/** A question set select's options: "choose" first, then the user's sets with their sizes. */
export function QuestionSetOptions() {
  const { t } = useI18n();
  const sets = useQuestionSets();
  return (
    <>
      <option value="">{t("new.choose")}</option>
      {(sets.data ?? []).map((s) => (
        <option key={s.id} value={s.id}>
          {s.name} ({s.question_count ?? "?"})
        </option>
      ))}
    </>
  );
}
