import { createQueryClient } from './create-query-client';
import { onSessionUserChange } from './session.store';

/** The application's one cache. It empties when the signed-in user changes: no answer outlives its session. */
export const queryClient = createQueryClient();
onSessionUserChange(() => queryClient.clear());
