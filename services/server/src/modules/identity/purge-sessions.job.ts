import { Injectable } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { SessionsService } from './sessions.service.js';

/** Deletes sessions past their idle or absolute timeout, every hour. Idempotent. */
@Injectable()
@QueueJob()
export class PurgeSessionsJob implements Job {
  readonly queue = QueueName.Maintenance;
  readonly name = 'purge-sessions';
  readonly every = { ms: 60 * 60 * 1000 };

  constructor(private readonly sessions: SessionsService) {}

  async run() {
    await this.sessions.purgeExpired(new Date());
  }
}
