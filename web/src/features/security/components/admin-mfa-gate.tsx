import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { MFA_MESSAGES, pages } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { mfaStatusQuery } from '../mfa.queries';

/**
 * The admin pages, once their admin has a second factor where the server requires one (ADMIN_MFA=required): until
 * then a way to Settings to set it up (the admin calls would answer 403 MFA_ENROLMENT_REQUIRED anyway).
 */
export function AdminMfaGate({ children }: { children: ReactNode }) {
  const { data } = useQuery(mfaStatusQuery());
  if (data?.required && !data.totp) {
    return (
      <Alert tone="warning" data-testid="admin-mfa-required">
        {MFA_MESSAGES.enrolmentRequired}.{' '}
        <Link to={pages.settings} className="font-semibold underline">
          Go to Settings
        </Link>
      </Alert>
    );
  }
  return children;
}
