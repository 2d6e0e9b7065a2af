import { useCollections } from "../api/queries";
import { useI18n } from "../i18n/i18n";

/** A collection select's options: "choose" first, then the user's collections by name. */
export function CollectionOptions() {
  const { t } = useI18n();
  const collections = useCollections();
  return (
    <>
      <option value="">{t("new.choose")}</option>
      {(collections.data ?? []).map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </>
  );
}
