import type { Ref } from 'react';
import { FormField } from '../../../components/ui/form-field';
import type { AccountEntry, AccountEntryErrors } from '../account-rules';

export interface AccountFieldsProps {
  entry: AccountEntry;
  errors?: AccountEntryErrors;
  onChange: (patch: Partial<AccountEntry>) => void;
  /** Labels name the row when there are several ("Email (account 2)"). */
  suffix?: string;
  disabled?: boolean;
  autoFocus?: boolean;
  passwordRef?: Ref<HTMLInputElement>;
}

/**
 * E-mail and password of one wallet account (docs/reference.md "Form rules": both required). The password belongs to
 * the wallet service, not to this site, so the browser is asked not to fill or save it as this site's.
 */
export function AccountFields({
  entry,
  errors,
  onChange,
  suffix,
  disabled,
  autoFocus,
  passwordRef,
}: AccountFieldsProps) {
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      <FormField
        label={<>Email{suffix ? <span className="sr-only"> ({suffix})</span> : null}</>}
        type="email"
        required
        autoComplete="off"
        spellCheck={false}
        autoFocus={autoFocus}
        disabled={disabled}
        value={entry.email}
        onChange={(event) => onChange({ email: event.target.value })}
        error={errors?.email}
        announceError={false}
      />
      <FormField
        label={<>Password{suffix ? <span className="sr-only"> ({suffix})</span> : null}</>}
        ref={passwordRef}
        type="password"
        required
        autoComplete="off"
        disabled={disabled}
        value={entry.password}
        onChange={(event) => onChange({ password: event.target.value })}
        error={errors?.password}
        announceError={false}
      />
    </div>
  );
}
