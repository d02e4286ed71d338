import { useState, type ReactNode } from 'react';
import { toast } from '../../../lib/toast';
import {
  claimantText,
  letsSeveralSave,
  RECIPIENT_MESSAGES,
  recipientDisplay,
  type Ticket,
  type TicketDistribution,
} from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { LinkFacts } from '../../../components/distribution/link-facts';
import {
  copyLink,
  CopyLinkButton,
  IconButton,
  LinkLine,
  OpenLinkButton,
} from '../../../components/distribution/link-controls';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { cx } from '../../../components/ui/cx';
import { AlertIcon, LockIcon, PencilIcon, QrIcon, TagIcon, UndoIcon } from '../../../components/ui/icons';
import { EditLinkModal } from '../../../components/distribution/edit-link-modal';
import { DISTRIBUTION_TEXTS, isExpired, isLimitReached, type DistributionSettings } from '../../../lib/distribution';
import { localFormat } from '../../../lib/format';
import { useEditLink, useRecallTicket } from '../hooks/use-ticket-actions';
import { ClickSparkline } from './click-sparkline';
import { QrDialog } from './qr-dialog';

/** Copy, Open (a new tab) and the QR code of a link, as icon buttons. */
function LinkButtons({ ticket, link, children }: { ticket: Ticket; link: string; children?: ReactNode }) {
  const [showQr, setShowQr] = useState(false);
  return (
    <>
      <CopyLinkButton link={link} data-testid="copy-link" />
      <OpenLinkButton link={link} data-testid="open-link" />
      <IconButton label="Show QR code" onClick={() => setShowQr(true)} data-testid="show-qr">
        <QrIcon className="h-4 w-4" />
      </IconButton>
      {children}
      {showQr ? (
        <QrDialog
          title={ticket.title}
          seat={ticket.seat?.seat_info_combined}
          link={link}
          onCopy={() => void copyLink(link)}
          onClose={() => setShowQr(false)}
        />
      ) : null}
    </>
  );
}

/**
 * Recall Ticket: asks first (the link stops working at once for everyone it was shared with), then recalls; disabled
 * and pulsing while the recall runs (docs/reference.md "Tickets Overview screen"). Toasts 'Ticket recalled' or
 * 'Failed to recall'.
 */
function RecallButton({ ticket, compact }: { ticket: Ticket; compact: boolean }) {
  const { recall, recalling } = useRecallTicket(ticket.id);
  const [confirming, setConfirming] = useState(false);

  const onConfirm = async () => {
    setConfirming(false);
    const outcome = await recall();
    if (outcome.ok) toast.success(DISTRIBUTION_TEXTS.recalled);
    else toast.error(DISTRIBUTION_TEXTS.recallFailedToast);
  };

  const common = {
    onClick: () => setConfirming(true),
    disabled: recalling,
    'aria-busy': recalling,
    'data-testid': 'recall-ticket',
  } as const;
  return (
    <>
      {compact ? (
        <IconButton
          label="Recall Ticket"
          {...common}
          className={cx('text-red-700 hover:text-red-800', recalling && 'motion-safe:animate-pulse')}
        >
          <UndoIcon className="h-4 w-4" />
        </IconButton>
      ) : (
        <Button
          size="sm"
          variant="secondary"
          className={cx('min-w-0 flex-1 text-red-700', recalling && 'motion-safe:animate-pulse')}
          {...common}
        >
          <UndoIcon className="h-4 w-4" />
          Recall Ticket
        </Button>
      )}
      {confirming ? (
        <ConfirmDialog
          title="Recall Ticket"
          message={
            <>
              The link of <strong className="font-semibold text-slate-900">{ticket.title}</strong> stops working at
              once: whoever opens it is told it was withdrawn. The ticket can then be distributed again.{' '}
              {DISTRIBUTION_TEXTS.recallKeepsCredits}
            </>
          }
          confirmLabel="Recall Ticket"
          onConfirm={() => void onConfirm()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}

/**
 * Edit Link (an icon button beside Copy, Open and the QR code): opens the modal with the link's settings; saves what
 * changed, toasts 'Link updated' or why not.
 */
function EditButton({ ticket }: { ticket: Ticket }) {
  const { edit, saving } = useEditLink(ticket.id);
  const [editing, setEditing] = useState(false);
  const link = ticket.distribution;
  if (!link) return null;

  const onSubmit = async (settings: DistributionSettings) => {
    const outcome = await edit(settings);
    if (!outcome.ok) {
      toast.error(outcome.message);
      return;
    }
    setEditing(false);
    toast.success(outcome.changed ? DISTRIBUTION_TEXTS.linkUpdated : DISTRIBUTION_TEXTS.nothingChanged);
  };

  return (
    <>
      <IconButton
        label={DISTRIBUTION_TEXTS.editLink}
        onClick={() => setEditing(true)}
        disabled={saving}
        aria-busy={saving}
        data-testid="edit-link"
      >
        <PencilIcon className="h-4 w-4" />
      </IconButton>
      {editing ? (
        <EditLinkModal
          title={ticket.title}
          link={link}
          eventStart={ticket.metadata?.next_game_date}
          busy={saving}
          onSubmit={(settings) => void onSubmit(settings)}
          onClose={() => setEditing(false)}
        />
      ) : null}
    </>
  );
}

/** A link's label ("for Sam"), when it has one. */
function LinkLabel({ label, compact }: { label: string | null; compact: boolean }) {
  if (!label) return null;
  return (
    <p
      // The owner's own word for the link keeps up to two fifths of the line; who claimed gives way first.
      className={cx(
        'flex max-w-[40%] min-w-0 shrink-0 items-center gap-1 font-medium text-slate-800',
        compact ? 'text-xs' : 'text-sm',
      )}
      data-testid="link-label"
      title={label}
    >
      <TagIcon className="h-3.5 w-3.5 text-slate-500" />
      <span className="sr-only">Label: </span>
      <span className="truncate">{label}</span>
    </p>
  );
}

/**
 * 'PIN' when a recipient must enter one. Wrong PINs lock no link (they are slowed per device and address, and the
 * owner is told of repeated ones), so there is no locked state to show.
 */
function PinBadge({ link }: { link: Pick<TicketDistribution, 'has_pin'> }) {
  if (!link.has_pin) return null;
  return (
    <Badge tone="slate" testId="pin-badge" title="Recipients must enter the link's PIN">
      <LockIcon className="h-3 w-3" />
      PIN
    </Badge>
  );
}

/**
 * A live link that more than one person can save the seat with (a click limit above 1, or none: letsSeveralSave) is
 * marked at the end of its line, the warning in its tooltip and its name; an expired link, or one at its limit, saves
 * nothing more and is not. On the link's line, which ellipsises the link, so a card keeps the height it is laid out at.
 */
function SeatSharingMarker({ link, now }: { link: TicketDistribution; now: number }) {
  if (isLimitReached(link) || isExpired(link, now) || !letsSeveralSave(link.max_clicks)) return null;
  return (
    <span
      role="img"
      aria-label={DISTRIBUTION_TEXTS.seatSharing}
      title={DISTRIBUTION_TEXTS.seatSharing}
      className="ml-1 inline-flex shrink-0 text-amber-700"
      data-testid="seat-sharing-marker"
    >
      <AlertIcon className="h-3.5 w-3.5" aria-hidden="true" />
    </span>
  );
}

/**
 * Who made the link's last click: "claimed by Sam · 18:02 · iPhone" (the time as the day's when it was today, else with
 * its day). The name is the recipient's own words: isolated, so a right-to-left name cannot reorder what follows.
 */
function Claimant({ link, now }: { link: TicketDistribution; now: number }) {
  const claimant = link.claimed_by;
  if (!claimant) return null;
  const at = new Date(claimant.at);
  const today = new Date(now).toDateString() === at.toDateString();
  const when = today ? localFormat.time(at) : localFormat.dayMonthTime(at);
  const text = claimantText(claimant, when) ?? `claimed · ${when}`;
  return (
    <p className="min-w-0 truncate text-xs text-slate-600" data-testid="link-claimant" title={text}>
      <bdi>{text}</bdi>
    </p>
  );
}

/** Whom the link is for: "To Sam" (the name, else the e-mail), isolated as the recipient's words are. */
function LinkRecipientTag({ link, compact }: { link: TicketDistribution; compact: boolean }) {
  const who = recipientDisplay(link.recipient);
  if (!who) return null;
  const text = RECIPIENT_MESSAGES.cardRecipient(who);
  const full = link.recipient?.email && link.recipient.name ? `${text} <${link.recipient.email}>` : text;
  return (
    <p
      className={cx('max-w-[40%] min-w-0 shrink-0 truncate text-slate-700', compact ? 'text-xs' : 'text-sm')}
      data-testid="link-recipient"
      title={full}
    >
      <bdi>{text}</bdi>
    </p>
  );
}

/** A link's label, recipient, PIN badge and who claimed it last, on one line (none when it has none of them). */
function LinkTags({ link, compact, now }: { link: TicketDistribution; compact: boolean; now: number }) {
  if (!link.label && !link.has_pin && !link.claimed_by && !link.recipient) return null;
  return (
    <div className={cx('flex min-w-0 items-center gap-2', compact ? 'h-4' : 'h-5')}>
      <LinkLabel label={link.label} compact={compact} />
      <LinkRecipientTag link={link} compact={compact} />
      <PinBadge link={link} />
      <Claimant link={link} now={now} />
    </div>
  );
}

export interface TicketLinkAreaProps {
  ticket: Ticket;
  /** One tight block for a table row. */
  compact?: boolean;
  distributing?: boolean;
  /** Epoch ms (useNow), for 'Expired'. */
  now: number;
}

/**
 * The link part of a ticket (docs/reference.md "Tickets Overview screen"): a duplicate cannot be distributed; while its
 * distribution runs it reads 'Distributing...'; a ticket with a link shows it cut to 30 characters with Copy, Open, the
 * QR code and Recall, its clicks (with their timeline) and expiry; a ticket without one says so.
 */
export function TicketLinkArea({ ticket, compact = false, distributing = false, now }: TicketLinkAreaProps) {
  const box = cx('min-w-0', compact ? 'text-xs' : 'rounded-lg px-3 py-2 text-sm');
  if (ticket.is_duplicate) {
    return (
      <p className={cx(box, 'text-amber-800', !compact && 'bg-amber-50')} data-testid="ticket-link-area">
        Cannot distribute duplicate tickets
      </p>
    );
  }
  if (distributing) {
    return (
      <p
        role="status"
        className={cx(box, 'font-medium text-indigo-700 motion-safe:animate-pulse', !compact && 'bg-indigo-50')}
        data-testid="ticket-link-area"
        data-state="distributing"
      >
        {DISTRIBUTION_TEXTS.distributing}
      </p>
    );
  }
  const distribution = ticket.distribution;
  if (distribution?.link) {
    return (
      <div
        className={cx(box, 'text-slate-700', compact ? 'space-y-0.5' : 'space-y-1.5 bg-slate-50')}
        data-testid="ticket-link-area"
        data-state="linked"
        data-distribution-id={distribution.distribution_id}
      >
        {compact ? (
          // A row's first line: the label (at most 40 % of it) beside the link.
          <div className="flex min-w-0 items-center gap-2">
            {distribution.label || distribution.has_pin || distribution.claimed_by || distribution.recipient ? (
              <div className="max-w-[40%] shrink-0">
                <LinkTags link={distribution} compact now={now} />
              </div>
            ) : null}
            <LinkLine link={distribution.link} className="min-w-0 gap-1.5">
              <SeatSharingMarker link={distribution} now={now} />
            </LinkLine>
          </div>
        ) : (
          <>
            <LinkTags link={distribution} compact={false} now={now} />
            {/* The link, and the button that edits it (the buttons' row has no room left for it on a card); the line keeps
                the link's own height, the button reaching into the padding around it. */}
            <div className="flex h-4 min-w-0 items-center justify-between gap-1">
              <LinkLine link={distribution.link} className="min-w-0 gap-1.5">
                <SeatSharingMarker link={distribution} now={now} />
              </LinkLine>
              <EditButton ticket={ticket} />
            </div>
          </>
        )}
        {compact ? (
          // A table row has room for two lines: the link (its 30 characters in full), then its clicks and expiry with
          // the buttons beside them.
          <div className="flex min-w-0 items-center justify-between gap-2">
            <LinkFacts link={distribution} now={now} compact />
            <div className="-my-1 flex shrink-0 items-center">
              <LinkButtons ticket={ticket} link={distribution.link}>
                <EditButton ticket={ticket} />
                <RecallButton ticket={ticket} compact />
              </LinkButtons>
            </div>
          </div>
        ) : (
          <>
            <LinkFacts
              link={distribution}
              now={now}
              chart={
                <ClickSparkline
                  distributionId={distribution.distribution_id}
                  clicks={distribution.clicks}
                  now={now}
                  linkLabel={distribution.label}
                />
              }
            />
            <div className="flex items-center gap-1">
              <RecallButton ticket={ticket} compact={false} />
              <LinkButtons ticket={ticket} link={distribution.link} />
            </div>
          </>
        )}
      </div>
    );
  }
  return (
    <p className={cx(box, 'text-slate-600', !compact && 'bg-slate-50')} data-testid="ticket-link-area">
      {DISTRIBUTION_TEXTS.noLink}
    </p>
  );
}
