import { useCallback, useState } from 'react';
import type { TicketDistribution } from '@seatlink/contracts';
import { countOf } from '../../lib/format';
import {
  DISTRIBUTION_TEXTS,
  draftOfLink,
  validateDistributionSettings,
  type DistributionSettings,
} from '../../lib/distribution';
import { Modal } from '../ui/modal';
import { LinkSettingsForm } from './link-settings-form';
import { RecipientsField, type RecipientsValue } from './recipients-field';

export interface EditLinkModalProps {
  /** The ticket's title, to say which link this is. */
  title: string;
  link: TicketDistribution;
  /** The ticket's next-game start, offered as the expiry. */
  eventStart?: string | null;
  /** The checked settings; the owner sends what changed and closes. */
  onSubmit: (settings: DistributionSettings) => void;
  onClose: () => void;
  busy?: boolean;
}

/**
 * Edit Link: a live link's expiry, usage limit and label, changed without recalling it (its address and clicks stay,
 * nothing is paid again). The limit may not go below the clicks it has counted; an expiry left as it was is not
 * checked again (it may be less than an hour away).
 */
export function EditLinkModal({ title, link, eventStart, onSubmit, onClose, busy }: EditLinkModalProps) {
  const [recipient, setRecipient] = useState<RecipientsValue>({ recipients: {}, errors: [] });
  const onRecipient = useCallback((value: RecipientsValue) => setRecipient(value), []);
  const submit = (settings: DistributionSettings) => {
    if (recipient.errors.length > 0) return;
    onSubmit({ ...settings, recipient: recipient.recipients[link.distribution_id] ?? null });
  };
  return (
    <Modal
      title={DISTRIBUTION_TEXTS.editLink}
      description={`${title}: the link keeps its address and its ${countOf(link.clicks, 'click')}, and costs nothing to change.`}
      onClose={onClose}
      testId="edit-link"
    >
      <LinkSettingsForm
        initial={draftOfLink(link)}
        check={(draft, now) =>
          validateDistributionSettings(draft, now, { clicks: link.clicks, keptExpiry: link.expiry })
        }
        onSubmit={submit}
        onCancel={onClose}
        submitLabel="Save Changes"
        busy={busy}
        eventStart={eventStart}
        hasPin={link.has_pin}
      >
        <RecipientsField
          tickets={[{ id: link.distribution_id, title, seat: null }]}
          initial={link.recipient}
          onChange={onRecipient}
        />
      </LinkSettingsForm>
    </Modal>
  );
}
