import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// Tables of payments.

/** The payment provider's webhook events handled so far, by the provider's event id: a redelivery is answered at once. */
export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  handledAt: timestamp('handled_at', { withTimezone: true }).notNull().defaultNow(),
});
