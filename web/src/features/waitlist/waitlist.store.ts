import type { WaitlistRequest } from '@seatlink/contracts';
import { createRequestStore } from '../../lib/request-store';
import { joinWaitlist } from './api/join-waitlist';

/** The waitlist slice (SPEC.md §3): POST /v1/waitlist; its error clears at each new submit (§4). */
export const createWaitlistStore = () => createRequestStore<WaitlistRequest>(joinWaitlist, 'Something went wrong');
export const useWaitlistStore = createWaitlistStore();
