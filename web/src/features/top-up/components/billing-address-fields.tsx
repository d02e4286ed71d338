import { useMemo } from 'react';
import { FormField } from '../../../components/ui/form-field';
import { SelectField } from '../../../components/ui/select';
import { countryOptions } from '../countries';
import type { BillingDraft, BillingField } from '../top-up';

export interface BillingAddressFieldsProps {
  draft: BillingDraft;
  onChange: (patch: Partial<BillingDraft>) => void;
  /** Required fields found empty at the last Pay: marked until they are filled in. */
  missing: ReadonlySet<BillingField>;
  /** Hands over each field's element, so the first missing one can take the focus. */
  register: (field: BillingField) => (element: HTMLInputElement | HTMLSelectElement | null) => void;
}

const REQUIRED_TEXT = 'Required';
/** A field marked invalid shows a red ring, not only its red text. */
const INVALID = 'aria-invalid:ring-red-500';

/**
 * The billing address of the test mode's payment form (docs/reference.md "Top Up Credits dialog",
 * "Request and answer bodies"): first and last name, address lines, city, county or state, postal code, country
 * (two-letter code, Great Britain first chosen), e-mail and phone. Line 2, county or state and phone are optional. Two
 * columns from the small breakpoint, one on a phone.
 */
export function BillingAddressFields({ draft, onChange, missing, register }: BillingAddressFieldsProps) {
  const countries = useMemo(() => countryOptions(), []);

  const text = (
    field: Exclude<BillingField, 'country'>,
    label: string,
    autoComplete: string,
    options: { optional?: boolean; type?: string; className?: string } = {},
  ) => (
    <FormField
      ref={register(field)}
      label={options.optional ? `${label} (optional)` : label}
      type={options.type ?? 'text'}
      autoComplete={autoComplete}
      required={!options.optional}
      value={draft[field]}
      onChange={(event) => onChange({ [field]: event.target.value })}
      error={missing.has(field) ? REQUIRED_TEXT : null}
      announceError={false}
      containerClassName={options.className}
      className={INVALID}
      data-testid={`billing-${field}`}
    />
  );

  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-semibold text-slate-900">Billing address</legend>
      <div className="mt-3 grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-2">
        {text('firstName', 'First name', 'billing given-name')}
        {text('lastName', 'Last name', 'billing family-name')}
        {text('line1', 'Address line 1', 'billing address-line1', { className: 'sm:col-span-2' })}
        {text('line2', 'Address line 2', 'billing address-line2', { optional: true, className: 'sm:col-span-2' })}
        {text('city', 'City', 'billing address-level2')}
        {text('state', 'County / State', 'billing address-level1', { optional: true })}
        {text('postalCode', 'Postal code', 'billing postal-code')}
        <SelectField
          ref={register('country')}
          label="Country"
          autoComplete="billing country"
          required
          value={draft.country}
          onChange={(event) => onChange({ country: event.target.value })}
          aria-invalid={missing.has('country') ? true : undefined}
          className={INVALID}
          data-testid="billing-country"
        >
          {countries.map(({ code, name }) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </SelectField>
        {text('email', 'Email', 'email', { type: 'email', className: 'sm:col-span-2' })}
        {text('phone', 'Phone', 'billing tel', { optional: true, type: 'tel' })}
      </div>
    </fieldset>
  );
}
