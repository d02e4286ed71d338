import { queryOptions } from '@tanstack/react-query';
import { getMfaStatus } from './api/get-mfa-status';

/** The user's second factor (GET /v1/me/mfa): the Settings section and the admin pages' gate read it alike. */
export const MFA_KEY = ['mfa'] as const;
export const mfaStatusQuery = () => queryOptions({ queryKey: MFA_KEY, queryFn: getMfaStatus });
