import { Module } from '@nestjs/common';
import { EventLogPartitionsJob } from './event-log-partitions.job.js';

/** The event log's upkeep in the database: its partitions made ahead of need. */
@Module({ providers: [EventLogPartitionsJob] })
export class EventLogModule {}
