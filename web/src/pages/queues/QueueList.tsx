import { Link } from "@tanstack/react-router";
import { ErrorNote } from "../../components/ErrorNote";
import { useI18n } from "../../i18n/i18n";
import { useQueues } from "./queries";

/** `/queues`: the workspace's annotation queues (an annotator sees those assigned to them). */
export function QueueList() {
  const { t } = useI18n();
  const queues = useQueues();
  return (
    <section aria-labelledby="queues-title">
      <h1 id="queues-title">{t("queue.listTitle")}</h1>
      <p className="muted">{t("queue.listIntro")}</p>
      <ErrorNote error={queues.error} />
      {queues.isPending && <p>{t("common.loading")}</p>}
      {queues.data && queues.data.length === 0 && <p>{t("queue.empty")}</p>}
      {queues.data && queues.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>{t("queue.name")}</th>
              <th>{t("queue.source")}</th>
              <th>{t("queue.reviewers")}</th>
              <th>{t("queue.perItem")}</th>
              <th>{t("queue.complete")}</th>
            </tr>
          </thead>
          <tbody>
            {queues.data.map((queue) => (
              <tr key={queue.id}>
                <td>
                  <Link to="/queues/$queueId" params={{ queueId: queue.id }}>
                    {queue.name}
                  </Link>
                </td>
                <td>{t(`queue.kind.${queue.kind}`)}</td>
                <td>{queue.reviewers.map((r) => r.name).join(", ")}</td>
                <td>{queue.reviewers_per_item}</td>
                <td>
                  {queue.complete} / {queue.items}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
