import { lazy, Suspense, useCallback, useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { PAYMENT_MESSAGES } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { CheckIcon } from '../../../components/ui/icons';
import { Modal } from '../../../components/ui/modal';
import { useCreditsStore } from '../../../lib/credits.store';
import { creditsOf, formatCredits, formatGBP } from '../../../lib/format';
import { loadChunk } from '../../../lib/lazy-route';
import { useSessionStore } from '../../../lib/session.store';
import type { PaymentFormHandle, PaymentFormProps } from '../payment-form';
import {
  amountError,
  amountOf,
  DEFAULT_AMOUNT_CHOICE,
  payLabel,
  SUCCESS_DELAY_MS,
  summaryOf,
  TOP_UP_TEXTS,
  type AmountChoice,
  type TopUpSummary as Summary,
} from '../top-up';
import { useTopUpStore } from '../top-up.store';
import { AmountPicker } from './amount-picker';
import { TestChallengeDialog } from './test-challenge-dialog';
import { TestPaymentForm } from './test-payment-form';
import { TopUpSummary } from './top-up-summary';

/** Stripe's Elements form: a chunk of its own, loaded only in stripe mode. */
const StripePaymentForm = lazy(() => loadChunk(() => import('../stripe/stripe-payment-form')));

export interface TopUpModalProps {
  onClose: () => void;
}

/**
 * The Top Up Credits modal (docs/reference.md "Top Up Credits dialog", "Card payment states"): an amount (presets or
 * custom: whole pounds from £5, refused here otherwise), the payment form of the mode the server names (the test
 * gateway's card field, or Stripe's Elements; the card before the billing address), the summary, the terms, and a
 * footer that stays in view however far the modal scrolls (a phone): the outcome, Cancel and 'Pay £amount'
 * ('Processing...'). Once paid, 'Payment successful.' and 'Payment Successful' with Done alone, for 6 s; then (or at
 * Done) the user is re-read, the modal closes and the app goes to /. Escape, the backdrop and Cancel close it, except while a
 * payment is under way (closing then would hide how the charge ended).
 */
export function TopUpModal({ onClose }: TopUpModalProps) {
  const navigate = useNavigate();
  const balance = useCreditsStore((s) => s.balance);
  const user = useSessionStore((s) => s.user);
  const config = useTopUpStore((s) => s.config);
  const configLoading = useTopUpStore((s) => s.configLoading);
  const configError = useTopUpStore((s) => s.configError);
  const isLoading = useTopUpStore((s) => s.isLoading);
  const error = useTopUpStore((s) => s.error);
  const success = useTopUpStore((s) => s.success);
  const lastTransaction = useTopUpStore((s) => s.lastTransaction);
  const challenge = useTopUpStore((s) => s.challenge);
  const authenticating = useTopUpStore((s) => s.authenticating);
  const { loadConfig, pay, answerChallenge, refreshUser, clearError, reset } = useTopUpStore.getState();

  const [choice, setChoice] = useState<AmountChoice>(DEFAULT_AMOUNT_CHOICE);
  /** The custom amount is judged once it has been left or paid with, not at each keystroke on the way to '10'. */
  const [amountChecked, setAmountChecked] = useState(false);
  const customRef = useRef<HTMLInputElement>(null);
  /** The balance when Pay was pressed: the summary holds still while the credits arrive live. */
  const [balanceAtPay, setBalanceAtPay] = useState<number | null>(null);
  const form = useRef<PaymentFormHandle | null>(null);
  const payRef = useRef<HTMLButtonElement>(null);
  const doneRef = useRef<HTMLButtonElement>(null);
  const finished = useRef(false);
  const refusal = amountError(choice);
  /** What Pay and the summary name: nothing while the amount is one the modal refuses. */
  const amount = refusal ? null : amountOf(choice);

  useEffect(() => {
    void loadConfig();
    return () => reset();
  }, [loadConfig, reset]);

  const onFormReady = useCallback((handle: PaymentFormHandle | null) => {
    form.current = handle;
  }, []);

  /**
   * After a success: the user re-read, the modal closed, the app at / (docs/reference.md "Top Up Credits dialog",
   * "Card payment states").
   */
  const finish = async () => {
    if (finished.current) return;
    finished.current = true;
    await refreshUser();
    onClose();
    void navigate('/');
  };
  const finishLater = useEffectEvent(() => void finish());

  useEffect(() => {
    if (!success) return;
    // Pay, where the focus was, is gone: Done takes it.
    doneRef.current?.focus();
    const timer = window.setTimeout(finishLater, SUCCESS_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [success]);

  const close = () => {
    if (isLoading) return;
    if (success) void finish();
    else onClose();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const handle = form.current;
    if (isLoading || success || !handle) return;
    if (refusal || amount === null) {
      setAmountChecked(true);
      customRef.current?.focus();
      return;
    }
    clearError();
    const { billing, cardRefused } = await handle.read();
    if (billing && cardRefused) {
      handle.focusProblem();
      return;
    }
    setBalanceAtPay(balance);
    const paid = await pay({ amount, billing, card: handle.payments });
    if (paid) return;
    if (!billing) handle.focusProblem();
    // The Pay button was disabled while the payment ran, so the focus may have fallen out of the dialog.
    else if (!payRef.current?.closest('[role="dialog"]')?.contains(document.activeElement)) payRef.current?.focus();
  };

  const frozen = isLoading || success;
  const summary: Summary =
    success && lastTransaction
      ? {
          amount: formatGBP(lastTransaction.amount),
          credits: formatCredits(lastTransaction.credits),
          newBalance: creditsOf(lastTransaction.balance ?? (balanceAtPay ?? balance) + lastTransaction.credits),
        }
      : summaryOf(amount, frozen && balanceAtPay !== null ? balanceAtPay : balance);

  const formProps: PaymentFormProps = {
    prefill: { email: user?.email ?? '', firstName: user?.first_name ?? '', lastName: user?.last_name ?? '' },
    disabled: frozen,
    onReady: onFormReady,
  };
  const loadingForm = (
    <p className="text-sm text-slate-600" role="status">
      Loading...
    </p>
  );
  let paymentForm;
  if (config?.mode === 'test') {
    paymentForm = <TestPaymentForm {...formProps} />;
  } else if (config?.mode === 'stripe' && config.publishable_key) {
    paymentForm = (
      <Suspense fallback={loadingForm}>
        <StripePaymentForm publishableKey={config.publishable_key} {...formProps} />
      </Suspense>
    );
  } else if (config || configError) {
    paymentForm = (
      <Alert
        tone="error"
        className="flex flex-wrap items-center justify-between gap-2"
        data-testid="payment-form-error"
      >
        <span>{configError ?? TOP_UP_TEXTS.configFailed}</span>
        {configError ? (
          <Button variant="secondary" size="sm" onClick={() => void loadConfig()} disabled={configLoading}>
            Try again
          </Button>
        ) : null}
      </Alert>
    );
  } else {
    paymentForm = loadingForm;
  }

  return (
    <>
      <Modal
        title={TOP_UP_TEXTS.title}
        description={TOP_UP_TEXTS.subtitle}
        onClose={close}
        size="lg"
        testId="top-up-modal"
      >
        <form noValidate onSubmit={(event) => void submit(event)} className="space-y-6">
          <AmountPicker
            choice={choice}
            onChange={setChoice}
            disabled={frozen}
            error={amountChecked ? refusal : null}
            onCustomBlur={() => setAmountChecked(true)}
            customRef={customRef}
          />
          {paymentForm}
          <TopUpSummary summary={summary} />
          <p className="text-xs leading-relaxed text-slate-600" data-testid="top-up-terms">
            {TOP_UP_TEXTS.terms}
          </p>
          {/* Pay stays in view: the footer sticks to the bottom of the screen while the modal scrolls under it. */}
          <div
            className="sticky bottom-0 -mx-6 -mb-6 space-y-3 rounded-b-2xl border-t border-slate-200 bg-white px-6 py-4"
            data-testid="top-up-footer"
          >
            {error ? (
              <Alert tone="error" data-testid="top-up-error">
                {error}
              </Alert>
            ) : null}
            {success ? (
              <Alert tone="success" data-testid="top-up-success">
                {PAYMENT_MESSAGES.success}
              </Alert>
            ) : null}
            {success ? (
              // Paid: nothing is left to cancel or pay, so the one action is Done (it finishes now what the success
              // delay would finish later).
              <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                <p className="flex items-center gap-2 text-sm font-medium text-green-700" data-testid="top-up-paid">
                  <CheckIcon className="h-4 w-4" aria-hidden="true" />
                  {TOP_UP_TEXTS.paid}
                </p>
                <Button ref={doneRef} onClick={close} data-testid="top-up-done">
                  {TOP_UP_TEXTS.done}
                </Button>
              </div>
            ) : (
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Button variant="secondary" onClick={close} disabled={isLoading}>
                  Cancel
                </Button>
                <Button
                  ref={payRef}
                  type="submit"
                  disabled={frozen || config === null}
                  // Busy keeps the button's colours while it works ('Processing...').
                  aria-busy={frozen || undefined}
                  data-testid="pay-button"
                >
                  {isLoading ? TOP_UP_TEXTS.processing : payLabel(amount)}
                </Button>
              </div>
            )}
          </div>
        </form>
      </Modal>
      {challenge ? (
        <TestChallengeDialog
          amount={challenge.amount}
          busy={authenticating}
          onAnswer={(outcome) => void answerChallenge(outcome)}
        />
      ) : null}
    </>
  );
}
