import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook delivery's body, as every event has it (`{ id, type, created_at, data }`). */
export interface WebhookBody {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** One request that reached the receiver. */
export interface Arrival {
  /** Date.now() when its body had arrived. */
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The body read as JSON; null when it is not JSON. */
  body: WebhookBody | null;
  /** The receiver's requests open (received, not yet answered nor cut) as this one arrived, itself included. */
  openWith: number;
  /** The status the receiver answered, once it did. */
  answered?: number;
  /** The connection it came on is closed (kept alive otherwise: only a cut closes it within a minute). */
  closed: () => boolean;
}

/** How the receiver answers an arrival (it may answer later, or never). */
export type Behaviour = (got: Arrival, req: IncomingMessage, res: ServerResponse) => void;

/** Answers `status` (a redirect with a location), recording it on the arrival. */
export function answer(got: Arrival, res: ServerResponse, status: number): void {
  got.answered = status;
  if (status >= 300 && status < 400) res.setHeader('location', '/elsewhere');
  res.statusCode = status;
  res.end('ok');
}

/**
 * An endpoint of a user's own system, on this machine, for the webhook specs: it records every request that arrives
 * and answers as `behave` says (200 by default); it counts the requests it holds open and those cut before an answer.
 */
export class WebhookReceiver {
  readonly received: Arrival[] = [];
  /** Requests received whose answer has not ended (hanging ones stay until the sender gives up or is cut off). */
  readonly open = new Set<ServerResponse>();
  maxOpen = 0;
  /** Requests that ended without an answer (cut by the sender or by this receiver). */
  cut = 0;
  /** Connections made to it. */
  connections = 0;
  behave: Behaviour = (got, _req, res) => answer(got, res, 200);
  url = '';
  private server!: Server;

  /** `path`: what the address ends with (`/hook`), none by default. */
  constructor(private readonly path = '') {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.open.add(res);
      this.maxOpen = Math.max(this.maxOpen, this.open.size);
      res.on('close', () => {
        if (this.open.delete(res) && !res.writableEnded) this.cut++;
      });
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('error', () => undefined);
      res.on('error', () => undefined);
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: WebhookBody | null;
        try {
          body = JSON.parse(raw) as WebhookBody;
        } catch {
          body = null;
        }
        const socket = req.socket;
        const got: Arrival = {
          at: Date.now(),
          path: req.url ?? '',
          headers: req.headers,
          raw,
          body,
          openWith: this.open.size,
          closed: () => socket.destroyed,
        };
        this.received.push(got);
        this.behave(got, req, res);
      });
    });
    this.server.on('connection', () => this.connections++);
    // An idle kept-alive connection stays open: a closed one was cut.
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${this.path}`;
    return this;
  }

  /** The arrivals of one event (its id is the same in every try and resend). */
  of(eventId: string): Arrival[] {
    return this.received.filter((r) => r.body?.id === eventId);
  }

  ofType(type: string): Arrival[] {
    return this.received.filter((r) => r.body?.type === type);
  }

  /** Cuts every request it holds (the sender sees its connection reset). */
  release(): void {
    for (const res of this.open) res.socket?.destroy();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
