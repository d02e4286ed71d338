import { Injectable } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { Passkeys } from './passkeys.service.js';
import { SessionsService } from './sessions.service.js';
import { clock } from '../../shared/clock.js';

/** Deletes sessions past their idle or absolute timeout, and passkey challenges past theirs, every hour. Idempotent. */
@Injectable()
@QueueJob()
export class PurgeSessionsJob implements Job {
  readonly queue = QueueName.Maintenance;
  readonly name = 'purge-sessions';
  readonly every = { ms: 60 * 60 * 1000 };

  constructor(
    private readonly sessions: SessionsService,
    private readonly passkeys: Passkeys,
  ) {}

  async run() {
    const now = clock.now();
    await this.sessions.purgeExpired(now);
    await this.passkeys.purgeExpired(now);
  }
}
