import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { MFA_MESSAGES, RECOVERY_CODE_COUNT, type TotpEnrolmentResponse } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { LoadFailed, LoadingStatus } from '../../../components/ui/load-states';
import { QrCode } from '../../../components/ui/qr-code';
import { SettingsSection } from '../../../components/ui/settings-section';
import { errorMessage } from '../../../lib/api-client';
import { querySlice } from '../../../lib/query-slice';
import { confirmTotp, disableTotp, enrolTotp } from '../api/mfa';
import { MFA_KEY, mfaStatusQuery } from '../mfa.queries';
import { RecoveryCodes } from './recovery-codes';

const FETCH_FAILED = 'Failed to fetch two-factor settings';
const FAILED = 'Something went wrong. Please try again.';

type Step =
  | { name: 'idle' }
  | { name: 'enrolling'; enrolment: TotpEnrolmentResponse }
  | { name: 'codes'; codes: string[]; replaced: boolean }
  | { name: 'disabling' };

/** A code field with its own submit, and the server's refusal under it. */
function CodeForm({
  label,
  submitLabel,
  hint,
  onSubmit,
  onCancel,
  testId,
}: {
  label: string;
  submitLabel: string;
  hint: string;
  onSubmit: (code: string) => Promise<void>;
  onCancel: () => void;
  testId: string;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim() || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(code);
    } catch (err) {
      setError(errorMessage(err, FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="mt-4 max-w-sm space-y-3" data-testid={testId}>
      <FormField
        id={`${testId}-code`}
        label={label}
        autoComplete="one-time-code"
        required
        maxLength={20}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <p className="text-xs text-slate-500">{hint}</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? 'Checking...' : submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Whether the app is on, and what the user can do about it. */
function StateRow({ text, children }: { text: string; children: ReactNode }) {
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700" data-testid="mfa-state">
        {text}
      </p>
      {children}
    </div>
  );
}

/**
 * The Settings page's second factor: an authenticator app turned on (scan the QR code or type the key, then its
 * first code; the ten recovery codes are shown once, to keep) or off (with a fresh code or a recovery code).
 */
export function TwoFactorSettings() {
  const client = useQueryClient();
  const query = useQuery(mfaStatusQuery());
  const { data, error } = querySlice(query, FETCH_FAILED);
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const [starting, setStarting] = useState(false);

  const start = async () => {
    setStarting(true);
    try {
      setStep({ name: 'enrolling', enrolment: await enrolTotp() });
    } catch (err) {
      toast.error(errorMessage(err, FAILED));
    } finally {
      setStarting(false);
    }
  };
  const refresh = () => client.invalidateQueries({ queryKey: MFA_KEY });

  let body;
  if (error) body = <LoadFailed message={error} onRetry={() => void query.refetch()} testId="mfa-error" />;
  else if (!data) body = <LoadingStatus />;
  else if (step.name === 'enrolling') {
    const { secret, otpauth_url } = step.enrolment;
    body = (
      <div className="mt-4">
        <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600">
          <li>Scan this QR code with your authenticator app, or enter the key by hand.</li>
          <li>Enter the 6-digit code the app shows.</li>
        </ol>
        <div className="mt-4 flex flex-wrap items-center gap-6">
          <QrCode
            value={otpauth_url}
            size={176}
            label="QR code of the key for your authenticator app"
            testId="totp-qr"
          />
          <div className="text-sm">
            <div className="text-slate-500">Key</div>
            <code className="break-all font-mono text-slate-900" data-testid="totp-secret">
              {secret.replace(/(.{4})/g, '$1 ').trim()}
            </code>
          </div>
        </div>
        <CodeForm
          label="Code from the app"
          submitLabel="Turn on"
          hint={MFA_MESSAGES.totpFormat}
          testId="totp-confirm"
          onCancel={() => setStep({ name: 'idle' })}
          onSubmit={async (code) => {
            const { recovery_codes } = await confirmTotp({ code });
            setStep({ name: 'codes', codes: recovery_codes, replaced: data.passkeys > 0 });
            toast.success(MFA_MESSAGES.enabled);
            void refresh();
          }}
        />
      </div>
    );
  } else if (step.name === 'codes') {
    body = <RecoveryCodes codes={step.codes} replaced={step.replaced} onDone={() => setStep({ name: 'idle' })} />;
  } else if (step.name === 'disabling') {
    body = (
      <CodeForm
        label="Code from the app, or a recovery code"
        submitLabel="Turn off"
        hint={MFA_MESSAGES.codeFormat}
        testId="totp-disable"
        onCancel={() => setStep({ name: 'idle' })}
        onSubmit={async (code) => {
          await disableTotp({ code });
          setStep({ name: 'idle' });
          toast.success(MFA_MESSAGES.disabled);
          void refresh();
        }}
      />
    );
  } else if (data.totp) {
    body = (
      <StateRow
        text={`On: sign-ins ask for a code from your authenticator app. ${data.recovery_codes_left} of ${RECOVERY_CODE_COUNT} recovery codes left.`}
      >
        <Button variant="secondary" onClick={() => setStep({ name: 'disabling' })}>
          Turn off
        </Button>
      </StateRow>
    );
  } else {
    body = (
      <StateRow
        text={
          data.passkeys > 0
            ? `No app: sign-ins with your password ask for your passkey. ${data.recovery_codes_left} of ${RECOVERY_CODE_COUNT} recovery codes left.`
            : 'Off: your password alone signs you in.'
        }
      >
        <Button onClick={() => void start()} disabled={starting} aria-busy={starting}>
          Set up an authenticator app
        </Button>
      </StateRow>
    );
  }

  return (
    <SettingsSection
      id="two-factor"
      title="Two-factor authentication"
      description="A code from an authenticator app on your phone, asked after your password, keeps your account safe even if someone learns the password."
    >
      {body}
    </SettingsSection>
  );
}
