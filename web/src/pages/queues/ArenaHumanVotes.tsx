import { Link } from "@tanstack/react-router";
import { useI18n } from "../../i18n/i18n";
import { type PairAgreement, PairAgreementTable } from "./PairAgreementTable";
import { type QueueSummary, useAgreement, useQueues } from "./queries";

/**
 * On an arena's page: people's votes from the arena's review queues, as a human judge beside the
 * arena's own — for each pair of contestants, how often the reviewers' majority picked what the
 * judge picked.
 */
export function ArenaHumanVotes({ arenaId }: { arenaId: string }) {
  const { t } = useI18n();
  const queues = useQueues();
  const mine = (queues.data ?? []).filter(
    (q) => q.kind === "arena" && (q.source as { arena_id?: string }).arena_id === arenaId,
  );
  if (mine.length === 0) return null;
  return (
    <section aria-labelledby="human-votes-title">
      <h2 id="human-votes-title">{t("queue.humanVotes")}</h2>
      {mine.map((queue) => (
        <QueueVotes key={queue.id} queue={queue} />
      ))}
    </section>
  );
}

function QueueVotes({ queue }: { queue: QueueSummary }) {
  const { t } = useI18n();
  const agreement = useAgreement(queue.id, true);
  const pairs = agreement.data?.pairs ?? [];
  const standings = agreement.data?.people_standings ?? [];
  return (
    <>
      <PairVotes queue={queue} pairs={pairs} />
      {standings.length > 0 && (
        <table data-testid="arena-people-standings">
          <caption>{t("queue.peopleRanking")}</caption>
          <thead>
            <tr>
              <th>{t("queue.contestant")}</th>
              <th>{t("queue.rating")}</th>
              <th>{t("queue.record")}</th>
            </tr>
          </thead>
          <tbody>
            {standings.map((s) => (
              <tr key={s.contestant}>
                <td>{s.contestant}</td>
                <td>{Math.round(s.rating)}</td>
                <td>
                  {s.wins} · {s.losses} · {s.ties}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function PairVotes({ queue, pairs }: { queue: QueueSummary; pairs: readonly PairAgreement[] }) {
  const { t } = useI18n();
  const caption = (
    <>
      <Link to="/queues/$queueId" params={{ queueId: queue.id }}>
        {queue.name}
      </Link>{" "}
      · {t("queue.completeOf", { complete: queue.complete, items: queue.items })}
    </>
  );
  return <PairAgreementTable testId="arena-human-votes" caption={caption} pairs={pairs} />;
}
