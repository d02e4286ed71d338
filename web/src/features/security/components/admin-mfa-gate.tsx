import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { mfaStatusQuery } from '../mfa.queries';
import { mustEnrolForAdmin } from '../admin-mfa';
import { AdminMfaNotice } from './admin-mfa-notice';

/**
 * The admin pages, once their admin has a second factor where the server requires one (ADMIN_MFA=required): until
 * then what to do, with the way to Settings' authenticator setup (the admin calls would answer 403
 * MFA_ENROLMENT_REQUIRED anyway). A passkey is a second factor as an app is.
 */
export function AdminMfaGate({ children }: { children: ReactNode }) {
  const { data } = useQuery(mfaStatusQuery());
  return mustEnrolForAdmin(data) ? <AdminMfaNotice /> : children;
}
