/** Every queue name the server uses; job classes name their jobs. */
export enum QueueName {
  WalletSync = 'wallet-sync',
  Maintenance = 'maintenance',
  /** Visitor requests answered at once and carried out behind (e-mails of forgotten passwords, new links). */
  Identity = 'identity',
  /** Webhook deliveries to users' own endpoints (slow or failing endpoints never hold up the other queues). */
  Webhooks = 'webhooks',
}
