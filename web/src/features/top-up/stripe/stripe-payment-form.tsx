import { useEffect, useRef, useState } from 'react';
import { AddressElement, CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardElementChangeEvent, StripeElementsOptions } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { Alert } from '../../../components/ui/alert';
import { FormField } from '../../../components/ui/form-field';
import { useTheme, type Theme } from '../../../lib/theme';
import type { PaymentFormHandle, PaymentFormProps } from '../payment-form';
import { billingInfoOf, DEFAULT_COUNTRY, TOP_UP_TEXTS } from '../top-up';
import { stripeCardPayments } from './stripe-card-payments';

/**
 * Stripe mode's payment form (docs/reference.md "Top Up Credits dialog"; README "Buying credits by card"): Stripe's
 * CardElement (postal code hidden, as the address has it) first, then its AddressElement (billing mode, address
 * autocomplete, first and last name apart) with the e-mail. This module is its own chunk, loaded only in stripe mode;
 * Stripe.js itself is fetched from js.stripe.com when the form first shows.
 */

/**
 * Address autocomplete (a maps service; docs/reference.md "Top Up Credits dialog"): Stripe offers its own only beside
 * its Payment Element or in a Link session; beside the CardElement it needs a Google Maps Places key, given at build
 * time (VITE_GOOGLE_MAPS_API_KEY). Google's script runs inside Stripe's frame, so the dashboard's
 * Content-Security-Policy need not name it.
 */
const MAPS_API_KEY = (import.meta.env.VITE_GOOGLE_MAPS_API_KEY as string | undefined) || null;
const AUTOCOMPLETE = MAPS_API_KEY
  ? ({ mode: 'google_maps_api', apiKey: MAPS_API_KEY } as const)
  : ({ mode: 'automatic' } as const);

const loaded = new Map<string, Promise<Stripe | null>>();

/** Stripe.js for a publishable key, fetched once; null when it cannot be loaded (a later open tries again). */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch(() => {
      loaded.delete(publishableKey);
      return null;
    });
    loaded.set(publishableKey, stripe);
  }
  return stripe;
}

/**
 * The dashboard's look for Stripe's fields (indigo focus, slate text, rounded inputs), light and dark: the fields live
 * in Stripe's frames, out of reach of the page's CSS, so they are told the theme in effect (lib/theme).
 */
const APPEARANCE = {
  light: {
    theme: 'stripe',
    variables: {
      colorPrimary: '#4f46e5',
      colorText: '#0f172a',
      colorDanger: '#dc2626',
      borderRadius: '8px',
      fontSizeBase: '14px',
    },
  },
  dark: {
    theme: 'night',
    variables: {
      colorPrimary: '#7c86ff',
      colorBackground: '#0f172b',
      colorText: '#f8fafc',
      colorDanger: '#ff6467',
      borderRadius: '8px',
      fontSizeBase: '14px',
    },
  },
} as const satisfies Record<Theme, StripeElementsOptions['appearance']>;

const CARD_STYLE = {
  light: {
    base: { fontSize: '14px', color: '#0f172a', '::placeholder': { color: '#94a3b8' } },
    invalid: { color: '#dc2626' },
  },
  dark: {
    base: { fontSize: '14px', color: '#f8fafc', iconColor: '#cad5e2', '::placeholder': { color: '#62748e' } },
    invalid: { color: '#ff6467' },
  },
} as const;

export interface StripePaymentFormProps extends PaymentFormProps {
  publishableKey: string;
}

export default function StripePaymentForm({ publishableKey, ...props }: StripePaymentFormProps) {
  const theme = useTheme();
  const [stripe] = useState(() => stripeFor(publishableKey));
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    let live = true;
    void stripe.then((loadedStripe) => {
      if (live && !loadedStripe) setUnavailable(true);
    });
    return () => {
      live = false;
    };
  }, [stripe]);

  if (unavailable) {
    return (
      <Alert tone="error" data-testid="payment-form-error">
        {TOP_UP_TEXTS.configFailed}
      </Alert>
    );
  }
  return (
    <Elements stripe={stripe} options={{ appearance: APPEARANCE[theme] }}>
      <StripeFields {...props} />
    </Elements>
  );
}

function StripeFields({ prefill, disabled, onReady }: PaymentFormProps) {
  const theme = useTheme();
  const stripe = useStripe();
  const elements = useElements();
  const [email, setEmail] = useState(prefill.email);
  const [emailMissing, setEmailMissing] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const card = useRef<{ complete: boolean; error?: StripeCardElementChangeEvent['error'] }>({ complete: false });
  const emailRef = useRef<HTMLInputElement>(null);
  const problem = useRef<'email' | 'address' | 'card' | null>(null);
  const emailValue = useRef(email);

  useEffect(() => {
    emailValue.current = email;
  }, [email]);

  useEffect(() => {
    if (!stripe || !elements) return;
    const handle: PaymentFormHandle = {
      async read() {
        const address = elements.getElement(AddressElement);
        const result = address ? await address.getValue() : null;
        const currentEmail = emailValue.current.trim();
        setEmailMissing(currentEmail === '');
        const complete = Boolean(result?.complete) && currentEmail !== '';
        let cardRefused = false;
        if (complete && !card.current.complete) {
          setCardError(card.current.error?.message ?? TOP_UP_TEXTS.cardIncomplete);
          cardRefused = true;
        }
        problem.current = currentEmail === '' ? 'email' : !result?.complete ? 'address' : cardRefused ? 'card' : null;
        if (!complete || !result) return { billing: null, cardRefused };
        const { value } = result;
        return {
          billing: billingInfoOf(
            {
              firstName: value.firstName ?? value.name,
              lastName: value.lastName ?? '',
              line1: value.address.line1,
              line2: value.address.line2,
              city: value.address.city,
              state: value.address.state,
              postalCode: value.address.postal_code,
              country: value.address.country,
              phone: value.phone ?? null,
            },
            currentEmail,
          ),
          cardRefused,
        };
      },
      payments: stripeCardPayments(stripe, () => elements.getElement(CardElement)),
      focusProblem() {
        if (problem.current === 'email') emailRef.current?.focus();
        else if (problem.current === 'address') elements.getElement(AddressElement)?.focus();
        else if (problem.current === 'card') elements.getElement(CardElement)?.focus();
      },
    };
    onReady(handle);
    return () => onReady(null);
  }, [stripe, elements, onReady]);

  return (
    <div className="space-y-5">
      <fieldset className="space-y-1">
        <legend className="text-sm font-semibold text-slate-900">Card details</legend>
        <div className="rounded-lg bg-white px-3 py-2.5 shadow-sm ring-1 ring-slate-300 ring-inset focus-within:ring-2 focus-within:ring-indigo-600">
          <CardElement
            options={{ hidePostalCode: true, disabled, style: CARD_STYLE[theme] }}
            onChange={(event) => {
              card.current = { complete: event.complete, error: event.error };
              setCardError(event.error?.message ?? null);
            }}
          />
        </div>
        {cardError ? (
          <p role="alert" className="text-sm text-red-600" data-testid="card-error">
            {cardError}
          </p>
        ) : null}
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">Billing address</legend>
        <AddressElement
          options={{
            mode: 'billing',
            autocomplete: AUTOCOMPLETE,
            display: { name: 'split' },
            fields: { phone: 'always' },
            validation: { phone: { required: 'never' } },
            defaultValues: {
              firstName: prefill.firstName,
              lastName: prefill.lastName,
              address: { country: DEFAULT_COUNTRY },
            },
          }}
        />
        <FormField
          ref={emailRef}
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          readOnly={disabled}
          onChange={(event) => {
            setEmail(event.target.value);
            setEmailMissing(false);
          }}
          error={emailMissing ? 'Required' : null}
          announceError={false}
          className="aria-invalid:ring-red-500"
        />
      </fieldset>
    </div>
  );
}
