/** Every queue name the server uses; job classes name their jobs. */
export enum QueueName {
  WalletSync = 'wallet-sync',
  Maintenance = 'maintenance',
}
