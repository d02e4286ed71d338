import { useEffect, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { resendVerification } from '../api/resend-verification';
import { VERIFICATION_NOTICE_HIDE_MS } from '../auth.constants';

type ResendStatus = 'idle' | 'sending' | 'sent' | 'failed';

/**
 * docs/reference.md "Fallback texts": the notice's text when the resend fails, and the fallback of the call's own
 * error.
 */
const RESEND_FAILED = 'Failed to send verification email. Please try again.';
const RESEND_FAILED_FALLBACK = 'Failed to resend verification email';

export interface EmailNotVerifiedNoticeProps {
  /** The server's login error message. */
  message: string;
  /** The address to send the verification email to. */
  email: string;
  /** Hides the notice (called 5 s after a successful resend). */
  onDismiss: () => void;
}

/**
 * Login error EMAIL_NOT_VERIFIED: the server message plus a 'Resend verification email' button
 * (docs/reference.md "Sign-in and password screens").
 */
export function EmailNotVerifiedNotice({ message, email, onDismiss }: EmailNotVerifiedNoticeProps) {
  const [status, setStatus] = useState<ResendStatus>('idle');
  /** Why the resend failed: the server's message, or its fallback (docs/reference.md "Fallback texts"). */
  const [reason, setReason] = useState<string | null>(null);

  useEffect(() => {
    if (status !== 'sent') return;
    const timer = window.setTimeout(onDismiss, VERIFICATION_NOTICE_HIDE_MS);
    return () => window.clearTimeout(timer);
  }, [status, onDismiss]);

  const resend = async () => {
    setStatus('sending');
    setReason(null);
    try {
      await resendVerification({ email });
      setStatus('sent');
    } catch (error) {
      setReason(errorMessage(error, RESEND_FAILED_FALLBACK));
      setStatus('failed');
    }
  };

  return (
    <Alert tone="warning" data-testid="email-not-verified-notice">
      <p>{message}</p>
      <div className="mt-2 flex items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void resend()}
          disabled={status === 'sending' || status === 'sent' || !email}
          aria-busy={status === 'sending'}
        >
          Resend verification email
        </Button>
        {status === 'sent' ? (
          <svg
            data-testid="resend-verification-success"
            role="img"
            aria-label="Verification email sent"
            viewBox="0 0 20 20"
            fill="currentColor"
            className="h-5 w-5 text-green-600"
          >
            <path
              fillRule="evenodd"
              d="M16.704 4.153a.75.75 0 0 1 .143 1.052l-8 10.5a.75.75 0 0 1-1.127.075l-4.5-4.5a.75.75 0 0 1 1.06-1.06l3.894 3.893 7.48-9.817a.75.75 0 0 1 1.05-.143Z"
              clipRule="evenodd"
            />
          </svg>
        ) : null}
      </div>
      {status === 'failed' ? (
        <div role="alert" className="mt-2 text-red-700" data-testid="resend-verification-error">
          <p>{RESEND_FAILED}</p>
          <p className="mt-0.5 text-xs" data-testid="resend-verification-reason">
            {reason}
          </p>
        </div>
      ) : null}
    </Alert>
  );
}
