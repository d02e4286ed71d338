import { create } from 'zustand';
import {
  PAYMENT_MESSAGES,
  type PaymentIntentStatus,
  type PaymentsConfig,
  type TopupResponse,
} from '@seatlink/contracts';
import { errorMessage, newIdempotencyKey, withRetries } from '../../lib/api-client';
import { useCreditsStore } from '../../lib/credits.store';
import { onSessionUserChange, useSessionStore } from '../../lib/session.store';
import { authenticateTestPayment, type TestAuthenticationOutcome } from './api/authenticate-test-payment';
import { completeTopUp } from './api/complete-top-up';
import { getMe } from './api/get-me';
import { getPaymentsConfig } from './api/get-payments-config';
import { topUp } from './api/top-up';
import { creditsFor, stepFor, stepMessage, TOP_UP_TEXTS, type BillingInfo, type StatusStep } from './top-up';

/** A card's PaymentMethod as the card field made it, or the message to show. */
export type PaymentMethodResult = { id: string } | { error: string };
/** How a payment that needed the browser (3-D Secure) ended: its new status, or the message to show. */
export type ConfirmResult = { status: PaymentIntentStatus } | { error: string };

/** A payment waiting for the browser: the PaymentIntent and its client secret. */
export interface PaymentToConfirm {
  id: string;
  clientSecret: string;
  /** Pounds, for the challenge to name. */
  amount: number;
}

/**
 * What the card field of the mode in use does (the test gateway's own field, or Stripe's CardElement): make a
 * PaymentMethod of the card, and confirm a payment that needs it in the browser (3-D Secure).
 */
export interface CardPayments {
  createPaymentMethod(billing: BillingInfo): Promise<PaymentMethodResult>;
  confirmPayment(payment: PaymentToConfirm): Promise<ConfirmResult>;
}

/** The last payment this modal made, as the server (or the browser's confirmation) last described it. */
export interface TopUpTransaction {
  paymentIntentId: string;
  amount: number;
  credits: number;
  status: PaymentIntentStatus;
  /** The balance after the credits, when the server said it. */
  balance: number | null;
}

/** The test gateway's 3-D Secure challenge on screen. */
export interface TestChallenge {
  paymentIntentId: string;
  clientSecret: string;
  amount: number;
}

/**
 * The top-up slice (docs/reference.md "Screen state": isLoading, error, lastTransaction, success), with the payments
 * configuration (which card field to show) and the test gateway's 3-D Secure challenge while one is open.
 */
export interface TopUpState {
  config: PaymentsConfig | null;
  configLoading: boolean;
  configError: string | null;
  isLoading: boolean;
  error: string | null;
  lastTransaction: TopUpTransaction | null;
  success: boolean;
  challenge: TestChallenge | null;
  /** The answer to the challenge is on its way. */
  authenticating: boolean;
}

export interface PayInput {
  /**
   * Pounds, sent as a number (docs/reference.md "Top-up rules"); the server refuses what it does not accept, with its
   * message.
   */
  amount: number;
  /** The billing address; null when a required field is missing (nothing is sent then). */
  billing: BillingInfo | null;
  card: CardPayments;
}

export interface TopUpActions {
  /** GET /v1/payments/config once (kept for later opens). */
  loadConfig(): Promise<void>;
  /**
   * The payment (docs/reference.md "Card payment states"): the address must be complete; a PaymentMethod is made of the
   * card; POST /v1/topup with a fresh Idempotency-Key (the same for its automatic retries). Success when the server
   * says the credits are on the balance. A payment that needs 3-D Secure is confirmed in the browser, and its status
   * decides: succeeded → POST /v1/topup/{id}/complete and success; requires_payment_method → declined; canceled →
   * cancelled; else an error. Resolves true on success.
   */
  pay(input: PayInput): Promise<boolean>;
  /** The test gateway's confirmation: shows the 3-D Secure challenge and resolves with how the payer answered it. */
  confirmWithTestChallenge(payment: PaymentToConfirm): Promise<ConfirmResult>;
  /** The payer completed or failed the test challenge (POST /v1/payments/test/intents/{id}/authenticate). */
  answerChallenge(outcome: TestAuthenticationOutcome): Promise<void>;
  /** GET /v1/me after a top-up: the balance (and the rest of the user) as the server has it now. */
  refreshUser(): Promise<void>;
  clearError(): void;
  /** Back to idle (the modal closed): a payment still under way answers into the void. The config is kept. */
  reset(): void;
}

export type TopUpStore = TopUpState & TopUpActions;

export const initialTopUpState: TopUpState = {
  config: null,
  configLoading: false,
  configError: null,
  isLoading: false,
  error: null,
  lastTransaction: null,
  success: false,
  challenge: null,
  authenticating: false,
};

function transactionOf(answer: TopupResponse, amount: number): TopUpTransaction {
  return {
    paymentIntentId: answer.payment_intent_id,
    amount,
    credits: creditsFor(amount),
    status: answer.payment_intent_status,
    balance: answer.balance ?? null,
  };
}

export function createTopUpStore() {
  /** Bumped by every payment and by reset: an older payment's answers change nothing. */
  let generation = 0;
  let pendingChallenge: ((result: ConfirmResult) => void) | null = null;

  const settleChallenge = (result: ConfirmResult) => {
    const resolve = pendingChallenge;
    pendingChallenge = null;
    resolve?.(result);
  };

  return create<TopUpStore>()((set, get) => ({
    ...initialTopUpState,

    async loadConfig() {
      if (get().config || get().configLoading) return;
      set({ configLoading: true, configError: null });
      try {
        const config = await withRetries(() => getPaymentsConfig());
        set({ config, configLoading: false });
      } catch (error) {
        set({ configLoading: false, configError: errorMessage(error, TOP_UP_TEXTS.configFailed) });
      }
    },

    async pay({ amount, billing, card }) {
      if (get().isLoading || get().success) return false;
      const current = ++generation;
      const live = () => current === generation;
      if (!billing) {
        set({ error: PAYMENT_MESSAGES.address });
        return false;
      }
      set({ isLoading: true, error: null, success: false });

      const fail = (message: string) => {
        if (live()) set({ isLoading: false, error: message });
        return false;
      };
      const record = (answer: TopupResponse) => {
        if (live()) set({ lastTransaction: transactionOf(answer, amount) });
      };
      const succeed = (answer: TopupResponse) => {
        if (!live()) return false;
        set({ isLoading: false, success: true, error: null, lastTransaction: transactionOf(answer, amount) });
        const userId = useSessionStore.getState().user?.id;
        if (userId && answer.balance !== undefined) useCreditsStore.getState().apply(userId, answer.balance);
        return true;
      };

      try {
        const method = await card.createPaymentMethod(billing);
        if (!live()) return false;
        if ('error' in method) return fail(method.error);

        const key = newIdempotencyKey();
        const body = { payment_id: method.id, amount, email: billing.email, billing_info: billing };
        let answer: TopupResponse;
        try {
          answer = await withRetries(() => topUp(body, key));
        } catch (error) {
          // A declined card (402 card_error) carries the bank's message; otherwise the server's, or the fallback.
          return fail(errorMessage(error, PAYMENT_MESSAGES.fallback));
        }
        if (!live()) return false;
        record(answer);
        if (answer.success) return succeed(answer);

        let step: StatusStep = stepFor(answer.payment_intent_status);
        if (step === 'confirm') {
          if (!answer.payment_intent_client_secret) return fail(PAYMENT_MESSAGES.processing);
          const confirmed = await card.confirmPayment({
            id: answer.payment_intent_id,
            clientSecret: answer.payment_intent_client_secret,
            amount,
          });
          if (!live()) return false;
          if ('error' in confirmed) return fail(confirmed.error);
          record({ ...answer, payment_intent_status: confirmed.status });
          step = stepFor(confirmed.status);
          if (step === 'succeeded') {
            const completeKey = newIdempotencyKey();
            let completed: TopupResponse;
            try {
              completed = await withRetries(() => completeTopUp(answer.payment_intent_id, completeKey));
            } catch (error) {
              return fail(errorMessage(error, PAYMENT_MESSAGES.fallback));
            }
            if (!live()) return false;
            record(completed);
            if (completed.success) return succeed(completed);
            step = stepFor(completed.payment_intent_status);
          }
        }
        // A payment that succeeded but bought nothing, or still waits for the browser, is an error to the payer.
        return fail(stepMessage(step === 'succeeded' || step === 'confirm' ? 'failed' : step));
      } catch {
        // Something broke in the browser (the card field's library, a bug): 'Error during payment'
        // (docs/reference.md "Payment messages").
        return fail(PAYMENT_MESSAGES.error);
      }
    },

    confirmWithTestChallenge(payment) {
      settleChallenge({ error: PAYMENT_MESSAGES.cancelled });
      return new Promise<ConfirmResult>((resolve) => {
        pendingChallenge = resolve;
        set({
          challenge: { paymentIntentId: payment.id, clientSecret: payment.clientSecret, amount: payment.amount },
          authenticating: false,
        });
      });
    },

    async answerChallenge(outcome) {
      const { challenge, authenticating } = get();
      if (!challenge || authenticating) return;
      const current = generation;
      set({ authenticating: true });
      const key = newIdempotencyKey();
      let result: ConfirmResult;
      try {
        const answer = await withRetries(() =>
          authenticateTestPayment(challenge.paymentIntentId, { client_secret: challenge.clientSecret, outcome }, key),
        );
        result = { status: answer.payment_intent_status };
      } catch (error) {
        result = { error: errorMessage(error, PAYMENT_MESSAGES.fallback) };
      }
      if (current !== generation) return;
      set({ challenge: null, authenticating: false });
      settleChallenge(result);
    },

    async refreshUser() {
      try {
        useSessionStore.getState().userChanged(await getMe());
      } catch {
        // The live balance push and the next status check still bring it.
      }
    },

    clearError() {
      if (get().error !== null) set({ error: null });
    },

    reset() {
      generation++;
      settleChallenge({ error: PAYMENT_MESSAGES.cancelled });
      const { config } = get();
      set({ ...initialTopUpState, config });
    },
  }));
}

export const useTopUpStore = createTopUpStore();
onSessionUserChange(() => useTopUpStore.getState().reset());
