import { useCallback, useState } from 'react';
import { toast } from '../../../lib/toast';
import { countOf } from '../../../lib/format';
import { BULK_LINK_MESSAGES, type BulkLinkFailure } from '@seatlink/contracts';
import { LinkSettingsForm } from '../../../components/distribution/link-settings-form';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Modal } from '../../../components/ui/modal';
import { EMPTY_SETTINGS_DRAFT, DISTRIBUTION_TEXTS, validateDistributionSettings } from '../../../lib/distribution';
import {
  RecipientsField,
  type RecipientsValue,
  type RecipientTicket,
} from '../../../components/distribution/recipients-field';
import { useBulkLinks } from '../hooks/use-ticket-actions';
import type { BulkOutcome } from '../ticket-actions';

const links = (n: number) => countOf(n, 'link');
const NO_RECIPIENTS: RecipientsValue = { recipients: {}, errors: [] };

/** The toast of a bulk outcome: how many were done, and why the others were not (the first reason). */
function report(outcome: BulkOutcome, done: (n: number) => string) {
  // Done before a call failed too: a selection of thousands is sent in parts.
  if (outcome.done > 0) toast.success(done(outcome.done));
  if (!outcome.ok) {
    toast.error(outcome.message);
    return;
  }
  if (outcome.failed.length > 0) toast.error(notDone(outcome.failed));
}

function notDone(failed: readonly BulkLinkFailure[]): string {
  return `${links(failed.length)} not changed: ${failed[0]!.message}`;
}

/**
 * The bottom bar's actions on the selected tickets that have a link: Edit Links (the settings ticked in the modal, the
 * others left as each link has them, and recipients pasted one line per link in order) and Recall Links (after
 * confirming; the credits are not given back).
 */
export function BulkLinkActions({ tickets }: { tickets: readonly RecipientTicket[] }) {
  const { recallMany, editMany, busy } = useBulkLinks();
  const [editing, setEditing] = useState<readonly RecipientTicket[] | null>(null);
  const [recalling, setRecalling] = useState<readonly string[] | null>(null);
  const [recipients, setRecipients] = useState<RecipientsValue>(NO_RECIPIENTS);
  const named = Object.keys(recipients.recipients).length > 0;
  const count = tickets.length;
  const ticketIds = tickets.map((t) => t.id);
  /** Save was pressed while a pasted line is wrong: said again beside the buttons until it is mended. */
  const [blocked, setBlocked] = useState(false);
  const onRecipients = useCallback((value: RecipientsValue) => {
    setRecipients(value);
    if (value.errors.length === 0) setBlocked(false);
  }, []);
  const closeEditing = () => {
    setEditing(null);
    setRecipients(NO_RECIPIENTS);
    setBlocked(false);
  };
  if (count === 0 && !editing && !recalling) return null;

  return (
    <>
      {count > 0 ? (
        <>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setEditing(tickets)}
            disabled={busy}
            data-testid="edit-links"
          >
            Edit {links(count)}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            className="text-red-700"
            onClick={() => setRecalling(ticketIds)}
            disabled={busy}
            data-testid="recall-links"
          >
            Recall {links(count)}
          </Button>
        </>
      ) : null}
      {editing ? (
        <Modal
          title={`Edit ${links(editing.length)}`}
          description="Tick what to change; the rest stays as each link has it. The links keep their addresses and clicks, and cost nothing to change."
          onClose={closeEditing}
          testId="edit-links-dialog"
        >
          <LinkSettingsForm
            choose
            alsoChanges={named || recipients.errors.length > 0}
            initial={EMPTY_SETTINGS_DRAFT}
            check={(draft, now) => validateDistributionSettings(draft, now)}
            onSubmit={(settings, choice) => {
              // A bad line, or more lines than links: nothing is sent until the recipients are right.
              if (recipients.errors.length > 0) {
                setBlocked(true);
                return;
              }
              const ids = editing.map((t) => t.id);
              const given = named ? { ...settings, recipients: recipients.recipients } : settings;
              closeEditing();
              void editMany({ ticketIds: ids, settings: given, choice }).then((outcome) =>
                report(outcome, BULK_LINK_MESSAGES.updated),
              );
            }}
            onCancel={closeEditing}
            submitLabel="Save Changes"
            busy={busy}
          >
            <RecipientsField tickets={editing} keep onChange={onRecipients} />
            {blocked ? (
              <p role="alert" className="text-sm text-red-700" data-testid="recipients-blocked">
                {recipients.errors[0]}
              </p>
            ) : null}
          </LinkSettingsForm>
        </Modal>
      ) : null}
      {recalling ? (
        <ConfirmDialog
          title={`Recall ${links(recalling.length)}`}
          message={
            <>
              The {links(recalling.length)} stop working at once: whoever opens one is told it was withdrawn. The
              tickets can then be distributed again. {DISTRIBUTION_TEXTS.recallKeepsCredits}
            </>
          }
          confirmLabel={`Recall ${links(recalling.length)}`}
          onConfirm={() => {
            const ids = recalling;
            setRecalling(null);
            void recallMany(ids).then((outcome) => report(outcome, BULK_LINK_MESSAGES.recalled));
          }}
          onCancel={() => setRecalling(null)}
        />
      ) : null}
    </>
  );
}
