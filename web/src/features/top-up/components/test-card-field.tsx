import { useId, type RefObject } from 'react';
import { Badge } from '../../../components/ui/badge';
import { FormField } from '../../../components/ui/form-field';
import { TEST_CARD_LIST } from '../top-up';

export interface TestCard {
  number: string;
  expiry: string;
  cvc: string;
}

export interface TestCardFieldProps {
  card: TestCard;
  onChange: (patch: Partial<TestCard>) => void;
  /** Why the card number cannot be used, beside it. */
  error: string | null;
  numberRef: RefObject<HTMLInputElement | null>;
}

/**
 * The test gateway's card field (test mode): a card number, and an expiry and CVC for the look of a real card form
 * (not sent). Only the listed test cards are known; the number (spaces allowed) becomes its PaymentMethod id.
 */
export function TestCardField({ card, onChange, error, numberRef }: TestCardFieldProps) {
  const cardsId = useId();

  return (
    <fieldset className="min-w-0">
      <legend className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        Card details <Badge tone="amber">Test mode</Badge>
      </legend>
      <div className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-[minmax(0,1fr)_7rem_5.5rem]">
        <FormField
          ref={numberRef}
          label="Card number (test mode)"
          inputMode="numeric"
          autoComplete="off"
          placeholder="4242 4242 4242 4242"
          maxLength={23}
          value={card.number}
          onChange={(event) => onChange({ number: event.target.value })}
          error={error}
          errorTestId="card-error"
          aria-describedby={cardsId}
          containerClassName="col-span-2 sm:col-span-1"
          className="font-mono tabular-nums aria-invalid:ring-red-500"
          data-testid="card-number"
        />
        <FormField
          label="Expiry"
          inputMode="numeric"
          autoComplete="off"
          placeholder="MM / YY"
          maxLength={7}
          value={card.expiry}
          onChange={(event) => onChange({ expiry: event.target.value })}
          className="tabular-nums"
        />
        <FormField
          label="CVC"
          inputMode="numeric"
          autoComplete="off"
          placeholder="123"
          maxLength={4}
          value={card.cvc}
          onChange={(event) => onChange({ cvc: event.target.value })}
          className="tabular-nums"
        />
      </div>
      <div id={cardsId} className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900">
        <p>No real card is charged in test mode. Test cards (any expiry and CVC):</p>
        <ul className="mt-1 grid gap-x-4 gap-y-0.5 sm:grid-cols-2">
          {TEST_CARD_LIST.map(({ number, behaviour }) => (
            <li key={number}>
              <span className="font-mono whitespace-nowrap">{number}</span> {behaviour}
            </li>
          ))}
        </ul>
      </div>
    </fieldset>
  );
}
