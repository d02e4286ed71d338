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
}: DistributionSettingsModalProps) {
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
        onSubmit={onSubmit}
        onCancel={onClose}
        submitLabel={generateLinksLabel(count)}
        eventStart={eventStart}
      >
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
