/** The user's endpoints; each endpoint's delivery log sits under it, so refreshing the list refreshes the logs too. */
export const WEBHOOKS_KEY = ['webhooks'] as const;
export const deliveriesKey = (id: string) => [...WEBHOOKS_KEY, id, 'deliveries'] as const;
export const FAILED = 'Something went wrong. Please try again.';
