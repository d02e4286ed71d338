import type { EmailRequest } from '@seatlink/contracts';
import { createRequestStore } from '../../lib/request-store';
import { forgotPassword } from './api/forgot-password';

/** The forgot-password slice (SPEC.md §3): POST /v1/forgot-password; failure fallback 'Something went wrong'. */
export const createForgotPasswordStore = () => createRequestStore<EmailRequest>(forgotPassword, 'Something went wrong');
export const useForgotPasswordStore = createForgotPasswordStore();
