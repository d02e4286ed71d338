import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // The event store's and subscriptions' tables, and each feature module's own.
  schema: ['./src/infra/db/schema.ts', './src/modules/*/*.schema.ts'],
  out: './drizzle',
});
