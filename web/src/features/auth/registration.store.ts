import type { RegisterRequest } from '@seatlink/contracts';
import { createRequestStore } from '../../lib/request-store';
import { register } from './api/register';

/** The registration slice (SPEC.md §3): POST /v1/auth/register; failure fallback 'Registration failed' (§8). */
export const createRegistrationStore = () => createRequestStore<RegisterRequest>(register, 'Registration failed');
export const useRegistrationStore = createRegistrationStore();
