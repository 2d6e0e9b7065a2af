import { useCollections } from "../api/queries";
import { useI18n } from "../i18n/i18n";

/** A collection select's options: `empty` (by default "choose") first, then the user's collections. */
export function CollectionOptions({ empty }: { empty?: string }) {
  const { t } = useI18n();
  const collections = useCollections();
  return (
    <>
      <option value="">{empty ?? t("new.choose")}</option>
      {(collections.data ?? []).map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </>
  );
}
