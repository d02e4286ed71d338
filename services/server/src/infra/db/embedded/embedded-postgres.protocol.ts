/** The messages between the product and the process that runs its embedded PostgreSQL server (embedded-postgres.host.ts). */

export interface EmbeddedOptions {
  /** The product's DATA_DIR: the cluster is `<dataDir>/postgres`, its password `<dataDir>/postgres.secret`. */
  dataDir: string;
  /** The server's max_connections. */
  maxConnections: number;
}

export type ParentMessage = { type: 'start'; options: EmbeddedOptions } | { type: 'stop' };

export type EmbeddedHostMessage =
  /** The server answers at `url`; `owner`: this host started it (and stops it), else it shares another's. */
  | { type: 'ready'; url: string; owner: boolean }
  | { type: 'log'; level: 'log' | 'warn' | 'error'; line: string }
  | { type: 'failed'; message: string };
