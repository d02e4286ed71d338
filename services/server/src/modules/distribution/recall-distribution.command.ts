import { Command } from '@nestjs/cqrs';

/** The owner withdraws a link (SPEC.md §7 POST /v1/distributions/{id}/recall). */
export class RecallDistributionCommand extends Command<{
  ticketId: string;
  distributionId: string;
  position: string | null;
}> {
  constructor(
    readonly input: { userId: string; distributionId: string; ip?: string; commandId: string },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
