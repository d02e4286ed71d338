import { useCallback, useState } from 'react';
import {
  DISTRIBUTION_TEXTS,
  distributionSubtitle,
  EMPTY_SETTINGS_DRAFT,
  generateLinksLabel,
  validateDistributionSettings,
  type DistributionSettings,
} from '../../lib/distribution';
import { creditsOf, formatCredits } from '../../lib/format';
import { Alert } from '../ui/alert';
import { Modal } from '../ui/modal';
import { LinkSettingsForm } from './link-settings-form';
import { RecipientsField, type RecipientsValue, type RecipientTicket } from './recipients-field';

export interface DistributionSettingsModalProps {
  /** Tickets the links are for. */
  count: number;
  /** What they cost and what the user has, shown beside the balance warning. */
  cost?: number;
  balance?: number;
  /** The tickets' shared next-game start, offered as the expiry. */
  eventStart?: string | null;
  /** The checked settings: expiryDate (ISO or null), maxClicks (null or a whole number), label. The owner closes. */
  onSubmit: (settings: DistributionSettings) => void;
  onClose: () => void;
  /** The tickets, in order: given, the links may name their recipients (RecipientsField). */
  tickets?: readonly RecipientTicket[];
}

/**
 * The Distribution Settings modal (docs/reference.md "Distribution Settings dialog"): the settings of the links to make
 * (LinkSettingsForm: expiry, usage limit, label), with the balance warning and what the links cost.
 */
export function DistributionSettingsModal({
  count,
  cost,
  balance,
  eventStart,
  onSubmit,
  onClose,
  tickets,
}: DistributionSettingsModalProps) {
  const [recipients, setRecipients] = useState<RecipientsValue>({ recipients: {}, errors: [] });
  const [blocked, setBlocked] = useState(false);
  const onRecipients = useCallback((value: RecipientsValue) => {
    setRecipients(value);
    if (value.errors.length === 0) setBlocked(false);
  }, []);
  const submit = (settings: DistributionSettings) => {
    // A bad line or more lines than tickets: nothing is charged until the recipients are right.
    if (recipients.errors.length > 0) {
      setBlocked(true);
      return;
    }
    const named = Object.keys(recipients.recipients).length > 0;
    onSubmit(named ? { ...settings, recipients: recipients.recipients } : settings);
  };
  return (
    <Modal
      title="Distribution Settings"
      description={distributionSubtitle(count)}
      onClose={onClose}
      testId="distribution-settings"
    >
      <LinkSettingsForm
        initial={EMPTY_SETTINGS_DRAFT}
        check={(draft, now) => validateDistributionSettings(draft, now)}
        onSubmit={submit}
        onCancel={onClose}
        submitLabel={generateLinksLabel(count)}
        eventStart={eventStart}
      >
        {tickets && tickets.length > 0 ? <RecipientsField tickets={tickets} onChange={onRecipients} /> : null}
        {blocked ? (
          <p role="alert" className="text-sm text-red-700" data-testid="recipients-blocked">
            {recipients.errors[0]}
          </p>
        ) : null}
        <Alert tone="warning" data-testid="balance-warning">
          <p>{DISTRIBUTION_TEXTS.balanceWarning}</p>
          {cost !== undefined && balance !== undefined ? (
            <p className="mt-1 text-xs" data-testid="distribution-cost">
              {count === 1 ? 'This link costs' : 'These links cost'} {creditsOf(cost)}; your balance is{' '}
              {formatCredits(balance)}.
            </p>
          ) : null}
        </Alert>
      </LinkSettingsForm>
    </Modal>
  );
}
