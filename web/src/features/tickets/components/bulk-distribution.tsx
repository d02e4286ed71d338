import { useMemo, useState } from 'react';
import { toast } from '../../../lib/toast';
import { DistributionSettingsModal } from '../../../components/distribution/distribution-settings-modal';
import { useCreditsStore } from '../../../lib/credits.store';
import {
  DISTRIBUTION_TEXTS,
  distributeButtonState,
  distributionCostOf,
  distributionStartedText,
  sharedEventStart,
  type DistributionSettings,
} from '../../../lib/distribution';
import { useSessionStore } from '../../../lib/session.store';
import { useDistributeTickets, useDistributingIds } from '../hooks/use-ticket-actions';
import { useTickets } from '../hooks/use-tickets';
import { useTicketsStore } from '../tickets.store';
import { BulkLinkActions } from './bulk-link-actions';
import { DistributeBar } from './distribute-bar';
import type { Ticket } from '@seatlink/contracts';
import type { RecipientTicket } from '../../../components/distribution/recipients-field';

/** A ticket as the recipient fields name it (its title and seat). */
const recipientTicket = (t: Ticket): RecipientTicket => ({
  id: t.id,
  title: t.title,
  seat: t.seat.seat_info_combined ?? null,
});

/**
 * The bulk actions on the selected tickets (docs/reference.md "Tickets Overview screen"): the bottom bar while any is
 * ticked, and the Distribution Settings modal it opens for those eligible (its settings distribute them); for those
 * with a link, Edit Links and Recall Links.
 */
export function BulkDistribution() {
  const balance = useCreditsStore((s) => s.balance);
  const { tickets } = useTickets();
  const selectedIds = useTicketsStore((s) => s.selectedIds);
  const { clearSelection } = useTicketsStore.getState();
  const distribute = useDistributeTickets();
  const costPerTicket = useSessionStore((s) => distributionCostOf(s.user));
  /** The tickets the open Distribution Settings modal is for (those eligible when it opened). */
  const [settingsFor, setSettingsFor] = useState<string[] | null>(null);

  const selectedTickets = useMemo(
    () => (selectedIds.size === 0 ? [] : tickets.filter((t) => selectedIds.has(t.id))),
    [tickets, selectedIds],
  );
  // Tickets whose distribution runs now are not offered again: a second submit before the first's answer would be a
  // request of its own for the same tickets (it would pay first, or be refused, and say the first had failed).
  const distributingIds = useDistributingIds();
  const button = distributeButtonState(
    distributingIds.size === 0 ? selectedTickets : selectedTickets.filter((t) => !distributingIds.has(t.id)),
    balance,
    costPerTicket,
  );
  const settingsIds = useMemo(() => new Set(settingsFor ?? []), [settingsFor]);
  // The tickets of the open modal in the order the links are asked for: the order the pasted recipients pair with.
  const recipientTickets = useMemo(() => {
    const byId = new Map(selectedTickets.map((t) => [t.id, t]));
    return (settingsFor ?? []).flatMap((id) => {
      const t = byId.get(id);
      return t ? [recipientTicket(t)] : [];
    });
  }, [settingsFor, selectedTickets]);
  const linked = useMemo(() => selectedTickets.filter((t) => t.distribution).map(recipientTicket), [selectedTickets]);

  const openSettings = () => {
    if (button.eligibleIds.length === 0) {
      toast.error(DISTRIBUTION_TEXTS.noValidTickets);
      return;
    }
    setSettingsFor(button.eligibleIds);
  };

  const onSettings = async (settings: DistributionSettings) => {
    // Only what is still eligible is sent: a live push may have changed a ticket while the modal was open.
    const stillEligible = new Set(button.eligibleIds);
    const ids = (settingsFor ?? []).filter((id) => stillEligible.has(id));
    setSettingsFor(null);
    const outcome = await distribute({ ticketIds: ids, settings });
    // Links made before a call failed too: a selection of thousands is sent in parts.
    if (outcome.count > 0) toast.success(distributionStartedText(outcome.count));
    if (!outcome.ok) toast.error(DISTRIBUTION_TEXTS.distributeFailedToast);
  };

  return (
    <>
      {selectedIds.size > 0 ? (
        <DistributeBar
          selectedCount={selectedIds.size}
          button={button}
          onDistribute={openSettings}
          onClear={clearSelection}
        >
          <BulkLinkActions tickets={linked} />
        </DistributeBar>
      ) : null}
      {settingsFor ? (
        <DistributionSettingsModal
          count={settingsFor.length}
          eventStart={sharedEventStart(selectedTickets.filter((t) => settingsIds.has(t.id)))}
          cost={settingsFor.length * costPerTicket}
          balance={balance}
          onSubmit={(settings) => void onSettings(settings)}
          onClose={() => setSettingsFor(null)}
          tickets={recipientTickets}
        />
      ) : null}
    </>
  );
}
