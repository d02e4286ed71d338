import { useCallback, useEffect, useRef, useState } from 'react';
import type { PaymentFormHandle, PaymentFormProps } from '../payment-form';
import {
  billingInfoFromDraft,
  emptyBilling,
  missingBillingFields,
  testPaymentMethodFor,
  type BillingDraft,
  type BillingField,
} from '../top-up';
import { useTopUpStore } from '../top-up.store';
import { BillingAddressFields } from './billing-address-fields';
import { TestCardField, type TestCard } from './test-card-field';

/**
 * Test mode's payment form: the test gateway's card field, then the billing address. A card that needs 3-D Secure is
 * confirmed through the test challenge (the top-up store shows it; the payer completes or fails it).
 */
export function TestPaymentForm({ prefill, disabled, onReady }: PaymentFormProps) {
  const [draft, setDraft] = useState<BillingDraft>(() => emptyBilling(prefill));
  const [missing, setMissing] = useState<ReadonlySet<BillingField>>(new Set());
  const [card, setCard] = useState<TestCard>({ number: '', expiry: '', cvc: '' });
  const [cardError, setCardError] = useState<string | null>(null);
  const fieldRefs = useRef<Partial<Record<BillingField, HTMLInputElement | HTMLSelectElement | null>>>({});
  const cardRef = useRef<HTMLInputElement>(null);
  // What Pay reads: the latest values, without handing the modal a new handle on every keystroke.
  const latest = useRef({ draft, card });
  const problem = useRef<BillingField | 'card' | null>(null);

  useEffect(() => {
    latest.current = { draft, card };
  }, [draft, card]);

  useEffect(() => {
    const handle: PaymentFormHandle = {
      async read() {
        const { draft: current, card: currentCard } = latest.current;
        const empty = missingBillingFields(current);
        setMissing(new Set(empty));
        const billing = billingInfoFromDraft(current);
        const method = testPaymentMethodFor(currentCard.number);
        const cardRefused = 'error' in method;
        setCardError('error' in method ? method.error : null);
        problem.current = empty[0] ?? (cardRefused ? 'card' : null);
        return { billing, cardRefused };
      },
      payments: {
        async createPaymentMethod() {
          return testPaymentMethodFor(latest.current.card.number);
        },
        confirmPayment: (payment) => useTopUpStore.getState().confirmWithTestChallenge(payment),
      },
      focusProblem() {
        const target = problem.current;
        if (target === 'card') cardRef.current?.focus();
        else if (target) fieldRefs.current[target]?.focus();
      },
    };
    onReady(handle);
    return () => onReady(null);
  }, [onReady]);

  const register = useCallback(
    (field: BillingField) => (element: HTMLInputElement | HTMLSelectElement | null) => {
      fieldRefs.current[field] = element;
    },
    [],
  );

  const updateDraft = (patch: Partial<BillingDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    // A field filled in loses its mark; the next Pay checks again.
    setMissing((current) => {
      const filled = Object.keys(patch).filter((key) => current.has(key as BillingField));
      if (filled.length === 0) return current;
      const next = new Set(current);
      for (const key of filled) next.delete(key as BillingField);
      return next;
    });
  };

  return (
    <fieldset disabled={disabled} className="min-w-0 space-y-5">
      <TestCardField
        card={card}
        onChange={(patch) => {
          setCard((current) => ({ ...current, ...patch }));
          if ('number' in patch) setCardError(null);
        }}
        error={cardError}
        numberRef={cardRef}
      />
      <BillingAddressFields draft={draft} onChange={updateDraft} missing={missing} register={register} />
    </fieldset>
  );
}
