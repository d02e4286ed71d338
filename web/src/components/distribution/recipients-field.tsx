import {
  type LinkRecipient,
  matchRecipients,
  parseRecipientLines,
  RECIPIENT_MESSAGES,
  checkRecipient,
} from '@seatlink/contracts';
import { useEffect, useId, useMemo, useState } from 'react';
import { FormField } from '../ui/form-field';

/** A ticket a link is about to be made for, as the check table names it. */
export interface RecipientTicket {
  id: string;
  title: string;
  seat: string | null;
}

/** What the fields say: whom each ticket's link is for (by ticket id), and what stops the links being made. */
export interface RecipientsValue {
  recipients: Record<string, LinkRecipient>;
  errors: string[];
}

/** One ticket: a Name and an Email field. */
function OneRecipient({
  ticket,
  initial,
  onChange,
}: {
  ticket: RecipientTicket;
  initial?: LinkRecipient | null;
  onChange: (value: RecipientsValue) => void;
}) {
  const [name, setName] = useState(initial?.name ?? '');
  const [email, setEmail] = useState(initial?.email ?? '');
  const { nameError, emailError, recipient } = checkRecipient(name, email);
  useEffect(() => {
    const errors = [nameError, emailError].filter((e): e is string => e !== null);
    const named = recipient.name !== null || recipient.email !== null;
    onChange({ recipients: named && errors.length === 0 ? { [ticket.id]: recipient } : {}, errors });
    // The parsed values follow from name and email.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, email, ticket.id, onChange]);
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold text-slate-900">Recipient (optional)</legend>
      <FormField
        label={RECIPIENT_MESSAGES.nameField}
        value={name}
        onChange={(event) => setName(event.target.value)}
        autoComplete="off"
        error={nameError}
        data-testid="recipient-name-input"
      />
      <FormField
        label={RECIPIENT_MESSAGES.emailField}
        type="email"
        hint="Seatlink e-mails them the link (never the PIN)."
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        autoComplete="off"
        error={emailError}
        data-testid="recipient-email-input"
      />
    </fieldset>
  );
}

/** Many tickets: a paste box, one line per ticket, and the check table "Ticket → Recipient" in order. */
function ManyRecipients({
  tickets,
  keep,
  onChange,
}: {
  tickets: readonly RecipientTicket[];
  keep: boolean;
  onChange: (value: RecipientsValue) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const matched = useMemo(
    () => matchRecipients(parseRecipientLines(text), tickets.length, keep),
    [text, tickets.length, keep],
  );
  useEffect(() => {
    const recipients: Record<string, LinkRecipient> = {};
    matched.recipients.forEach((r, i) => {
      if (r && tickets[i]) recipients[tickets[i].id] = r;
    });
    onChange({ recipients, errors: matched.errors });
  }, [matched, tickets, onChange]);
  const pasted = text.trim() !== '';
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
        {RECIPIENT_MESSAGES.pasteLabel}
      </label>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {RECIPIENT_MESSAGES.pasteHint}
      </p>
      <textarea
        id={id}
        aria-describedby={`${id}-hint`}
        rows={4}
        className="w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
        value={text}
        onChange={(event) => setText(event.target.value)}
        data-testid="recipients-input"
      />
      {matched.errors.length > 0 ? (
        <ul role="alert" className="space-y-0.5 text-sm text-red-700" data-testid="recipients-errors">
          {matched.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      {matched.warning ? (
        <p className="text-sm text-amber-800" data-testid="recipients-warning">
          {matched.warning}
        </p>
      ) : null}
      {pasted ? (
        <table className="w-full text-left text-sm" data-testid="recipients-check">
          <caption className="mb-1 text-left text-xs font-semibold text-slate-700">
            {RECIPIENT_MESSAGES.checkTitle}
          </caption>
          <tbody>
            {tickets.map((ticket, i) => {
              const r = matched.recipients[i];
              return (
                <tr key={ticket.id} className="border-t border-slate-100" data-testid="recipients-check-row">
                  <td className="py-1 pr-2 text-slate-800">
                    {ticket.title}
                    {ticket.seat ? <span className="text-slate-500"> · {ticket.seat}</span> : null}
                  </td>
                  <td className="py-1 text-slate-800">
                    {r ? (
                      <bdi>{[r.name, r.email ? `<${r.email}>` : null].filter(Boolean).join(' ')}</bdi>
                    ) : (
                      <span className="text-slate-500">
                        {keep ? RECIPIENT_MESSAGES.keptRecipient : RECIPIENT_MESSAGES.noRecipient}
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

/**
 * Whom new links are for (docs/reference.md "Distribution Settings dialog"): for one ticket a Name and an Email field;
 * for several a paste box, one line per ticket in order (`Name <email>`, `Name, email`, a spreadsheet's two columns,
 * an e-mail or a name), checked in a table before anything is charged. Editing many links, the paste box names the
 * recipients of those its lines reach.
 */
export function RecipientsField({
  tickets,
  initial,
  keep = false,
  onChange,
}: {
  tickets: readonly RecipientTicket[];
  /** One link's recipient as it is (Edit Link). */
  initial?: LinkRecipient | null;
  /** Links being edited (Edit Links): a ticket no line reaches keeps its link's recipient. */
  keep?: boolean;
  onChange: (value: RecipientsValue) => void;
}) {
  if (tickets.length === 1 && !keep) {
    return <OneRecipient ticket={tickets[0]!} initial={initial} onChange={onChange} />;
  }
  return <ManyRecipients tickets={tickets} keep={keep} onChange={onChange} />;
}
