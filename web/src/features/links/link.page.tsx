import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { LINK_MESSAGES, LINK_PIN_PATTERN, MAX_CLAIMANT_NAME, type PublicLink } from '@seatlink/contracts';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Brand } from '../../components/ui/brand';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { cx } from '../../components/ui/cx';
import { AlertIcon, CalendarIcon, PinIcon, TicketIcon, WalletIcon } from '../../components/ui/icons';
import { Logo } from '../../components/ui/logo';
import { formatDateTime } from '../../lib/format';
import { isSafeRedirect, stateCopy, type RecipientState } from './link-states';
import { claimedHere, type ClaimedHere } from './claimed-here';
import { claim, LINK_PAGE_MESSAGES, linkQuery } from './link.queries';
import { openLink } from './api/open-link';

function Detail({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="flex items-start gap-3">
      <dt className="mt-0.5 shrink-0 text-slate-500">
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className="min-w-0 flex-1 text-sm break-words text-slate-800">{children}</dd>
    </div>
  );
}

const stateBadges: Partial<Record<RecipientState, ReactNode>> = {
  limit_reached: <Badge tone="red">Limit Reached</Badge>,
  expired: <Badge tone="amber">Expired</Badge>,
  recalled: <Badge tone="slate">Withdrawn</Badge>,
};

/** Why the link does not work, and what to do (designed per state). */
function StatePanel({ state, link }: { state: Exclude<RecipientState, 'active'>; link: PublicLink | null }) {
  const copy = stateCopy(state, link?.expires_at ? formatDateTime(link.expires_at) : null);
  return (
    <section
      aria-labelledby="link-state-title"
      className="rounded-xl border border-slate-200 bg-slate-50 p-4"
      data-testid="link-state"
      data-state={state}
    >
      <div className="flex items-start gap-3">
        <span className="mt-0.5 rounded-full bg-amber-100 p-1.5 text-amber-800" aria-hidden="true">
          <AlertIcon className="h-5 w-5" />
        </span>
        <div className="min-w-0">
          <h2 id="link-state-title" className="text-base font-semibold text-slate-900">
            {copy.title}
          </h2>
          <p className="mt-1 text-sm text-slate-700">{copy.body}</p>
        </div>
      </div>
    </section>
  );
}

/**
 * A link this device claimed before: the ticket is the recipient's (saved on this device), not "ask for a new link";
 * they can open it in their wallet again.
 */
function YoursPanel({ claimed }: { claimed: ClaimedHere }) {
  return (
    <section
      aria-labelledby="link-yours-title"
      className="space-y-3 rounded-xl border border-green-200 bg-green-50 p-4"
      data-testid="link-yours"
    >
      <h2 id="link-yours-title" className="text-base font-semibold text-green-900">
        {LINK_MESSAGES.yours}
      </h2>
      <p className="text-sm text-green-900">Saved on {formatDateTime(claimed.at)}.</p>
      <a
        href={claimed.walletUrl}
        rel="noopener noreferrer"
        className="inline-flex w-full items-center justify-center gap-2 rounded-lg bg-green-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-green-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-green-700"
        data-testid="open-in-wallet"
      >
        <WalletIcon className="h-5 w-5" />
        {LINK_MESSAGES.openAgain}
      </a>
    </section>
  );
}

/**
 * /l/{code}: what someone a ticket was shared with sees (public, no session, outside the dashboard frame;
 * mobile-first). The ticket, and 'Add to wallet', which claims the link (one counted click) and goes on to the
 * wallet's page that saves the pass. A link that no longer works says why: 'Limit Reached', 'Expired', withdrawn by
 * its owner, or no such link; a claim refused meanwhile (410) turns the page into that state.
 *
 * `code` is the one of the address: the page is shown by an entry of its own (link-main.tsx, no router), and by the
 * dashboard's router when the app itself goes there (link.route.tsx).
 */
export function LinkPage({ code }: { code: string }) {
  const client = useQueryClient();
  const query = useQuery(linkQuery(code));
  const link = query.data?.link ?? null;
  const state = query.data?.state ?? null;
  const loading = query.isFetching && !query.data;
  const error = !query.data && query.isError ? LINK_PAGE_MESSAGES.loadFailed : null;
  const claiming = useMutation({
    mutationFn: ({ pin, name }: { pin: string | null; name: string | null }) => claim(client, code, pin, name),
  });
  const [name, setName] = useState('');
  // A claim this device made before (read once per link: the page leaves for the wallet after a claim).
  const [claimedBefore] = useState(() => claimedHere(code));
  /** The last claim's failure, for the link it was made on (`pin`: about the PIN, said under its field). */
  const [failure, setFailure] = useState<{ code: string; message: string | null; pin?: boolean } | null>(null);
  const claimError = failure?.code === code && !failure.pin ? failure.message : null;
  const pinError = failure?.code === code && failure.pin ? failure.message : null;
  const [pin, setPin] = useState('');
  // `locked` is answered no more (wrong PINs lock nobody out); a client of before is asked for the PIN all the same.
  const needsPin = link?.pin === 'required' || link?.pin === 'locked';
  const [leaving, setLeaving] = useState(false);
  /** Too many PINs tried from here: when the next try may go (ms), and the seconds left, counted down. */
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const [waitLeft, setWaitLeft] = useState(0);

  // The page of a link that exists was opened: told once per load (its owner sees opens), never waited for. An
  // address that is no link asks nothing more of the server.
  const exists = state !== null && state !== 'not_found';
  useEffect(() => {
    if (exists) openLink(code);
  }, [code, exists]);

  useEffect(() => {
    if (waitUntil === null) return;
    const tick = () => {
      const left = Math.max(0, Math.ceil((waitUntil - Date.now()) / 1000));
      setWaitLeft(left);
      if (left === 0) setWaitUntil(null);
    };
    tick();
    const timer = window.setInterval(tick, 250);
    return () => window.clearInterval(timer);
  }, [waitUntil]);
  const waiting = waitUntil !== null && waitLeft > 0;

  useEffect(() => {
    const previous = document.title;
    document.title = link && state === 'active' ? `${link.ticket.title} · Seatlink` : 'Shared ticket · Seatlink';
    return () => {
      document.title = previous;
    };
  }, [link, state]);

  const addToWallet = async () => {
    if (claiming.isPending || state !== 'active' || waiting) return;
    setFailure(null);
    if (needsPin && !LINK_PIN_PATTERN.test(pin.trim())) {
      setFailure({ code, message: pin.trim() ? LINK_MESSAGES.pinFormat : LINK_MESSAGES.pinRequired, pin: true });
      return;
    }
    const outcome = await claiming.mutateAsync({ pin: needsPin ? pin.trim() : null, name: name.trim() || null });
    if (outcome.walletUrl === null) {
      setFailure({ code, message: outcome.claimError, pin: outcome.pin });
      if (outcome.waitSeconds) setWaitUntil(Date.now() + outcome.waitSeconds * 1000);
    } else if (isSafeRedirect(outcome.walletUrl)) {
      setLeaving(true);
      window.location.assign(outcome.walletUrl);
    }
  };

  const ticket = state === 'not_found' ? null : link?.ticket;
  // A link this device claimed is theirs (used up or expired, not "ask for a new link"); a live one may still be added
  // again. A withdrawn link says so whatever this device did.
  const yours = claimedBefore && state !== 'recalled' && state !== 'not_found' ? claimedBefore : null;
  let body: ReactNode;
  if (loading || (!state && !error)) {
    body = (
      <p role="status" className="py-10 text-center text-sm text-slate-600">
        Loading...
      </p>
    );
  } else if (error) {
    body = (
      <div className="space-y-4 p-5">
        <Alert tone="error" data-testid="link-error">
          {error}
        </Alert>
        <Button variant="secondary" className="w-full" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = (
      <>
        {ticket ? (
          <div className="bg-gradient-to-br from-indigo-600 to-indigo-800 px-5 pt-6 pb-5 text-white">
            <div className="flex items-center gap-4">
              <Logo
                key={ticket.logo ?? ''}
                src={ticket.logo}
                className="h-16 w-16 shrink-0 rounded-xl bg-white object-contain p-1 shadow-sm"
                testId="link-logo"
              />
              <div className="min-w-0">
                <h1 className="text-xl leading-tight font-bold break-words" data-testid="link-title">
                  {ticket.title}
                </h1>
                {ticket.subtitle ? (
                  <p className="mt-1 text-sm break-words text-indigo-100" data-testid="link-subtitle">
                    {ticket.subtitle}
                  </p>
                ) : null}
              </div>
            </div>
            {state && stateBadges[state] ? <div className="mt-3">{stateBadges[state]}</div> : null}
          </div>
        ) : (
          <h1 className="sr-only">Shared ticket</h1>
        )}
        <div className="space-y-5 p-5">
          {ticket ? (
            <dl className="space-y-3">
              <Detail icon={<PinIcon className="h-5 w-5" />} label="Venue">
                <span data-testid="link-venue">{ticket.venue_name || 'Venue to be announced'}</span>
              </Detail>
              <Detail icon={<TicketIcon className="h-5 w-5" />} label="Seat">
                <span data-testid="link-seat">{ticket.seat_info || 'N/A'}</span>
              </Detail>
              {ticket.next_game || ticket.next_game_date ? (
                <Detail icon={<CalendarIcon className="h-5 w-5" />} label="Next game">
                  <span className="block" data-testid="link-next-game">
                    {ticket.next_game || 'Next game'}
                  </span>
                  {ticket.next_game_date ? (
                    <span className="block text-xs text-slate-600">{formatDateTime(ticket.next_game_date)}</span>
                  ) : null}
                </Detail>
              ) : null}
            </dl>
          ) : null}

          {yours ? <YoursPanel claimed={yours} /> : null}
          {state === 'active' ? (
            <form
              className="space-y-3"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void addToWallet();
              }}
            >
              {claimError ? (
                <Alert tone="error" data-testid="claim-error">
                  {claimError}
                </Alert>
              ) : null}
              {needsPin ? (
                <FormField
                  label="PIN"
                  hint="The sender protected this ticket with a PIN: enter the one they gave you."
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={8}
                  value={pin}
                  onChange={(event) => {
                    setPin(event.target.value.replace(/\D/g, ''));
                    setFailure(null);
                  }}
                  error={pinError}
                  errorTestId="pin-error"
                  data-testid="pin-input"
                  className="text-center font-mono text-lg tracking-[0.5em]"
                />
              ) : null}
              <FormField
                label={LINK_MESSAGES.nameLabel}
                hint={LINK_MESSAGES.nameHint}
                autoComplete="name"
                maxLength={MAX_CLAIMANT_NAME}
                value={name}
                onChange={(event) => setName(event.target.value)}
                data-testid="claimant-name"
              />
              {waiting ? (
                <p role="status" className="text-center text-sm text-slate-700" data-testid="pin-wait">
                  {LINK_MESSAGES.pinWaiting(waitLeft)}
                </p>
              ) : null}
              <Button
                type="submit"
                className="w-full py-3 text-base"
                disabled={claiming.isPending || leaving || waiting}
                aria-busy={claiming.isPending || leaving}
                data-testid="add-to-wallet"
              >
                <WalletIcon className="h-5 w-5" />
                {claiming.isPending || leaving ? 'Adding to wallet...' : 'Add to wallet'}
              </Button>
              <p className="text-center text-xs text-slate-600">
                {link?.expires_at ? `This link works until ${formatDateTime(link.expires_at)}. ` : null}
                The ticket is saved to your own wallet.
              </p>
            </form>
          ) : state && !yours ? (
            <StatePanel state={state} link={link} />
          ) : null}
        </div>
      </>
    );
  }

  return (
    <main className="flex min-h-screen flex-col items-center bg-gradient-to-br from-slate-50 to-indigo-50 px-4 py-8 sm:justify-center sm:py-12">
      <div className="w-full max-w-md">
        <div className="mb-6 flex flex-col items-center gap-2 text-center">
          <Brand />
          <p className="text-sm text-slate-600">A ticket was shared with you</p>
        </div>
        <article
          aria-busy={loading}
          className={cx('overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm')}
          data-testid="link-card"
          data-state={state ?? (error ? 'error' : 'loading')}
        >
          {body}
        </article>
      </div>
    </main>
  );
}
