import type { CardPayments } from './top-up.store';
import type { BillingInfo } from './top-up';

/** What the modal reads from the payment form of the mode in use when Pay is pressed. */
export interface PaymentFormReading {
  /** The billing info; null when a required address field is missing (the form marks what is missing). */
  billing: BillingInfo | null;
  /** The card field says, beside itself, why its card cannot be used as typed; nothing is sent then. */
  cardRefused: boolean;
}

/**
 * A payment form (the test gateway's, or Stripe's Elements): the billing address, the e-mail and the card field. The
 * modal around it holds the amount, the summary and the buttons, and drives the payment through the top-up store.
 */
export interface PaymentFormHandle {
  read(): Promise<PaymentFormReading>;
  payments: CardPayments;
  /** Puts the focus on the first field that needs attention after a refused read. */
  focusProblem(): void;
}

export interface PaymentFormProps {
  /** Filled in from the signed-in user. */
  prefill: { email: string; firstName: string; lastName: string };
  /** A payment is under way (or done): the fields are read-only. */
  disabled: boolean;
  /** The form hands over its handle when ready, and null when it goes. */
  onReady: (handle: PaymentFormHandle | null) => void;
}
