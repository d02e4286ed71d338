import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MAX_PIN_FAILURES } from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { THROTTLE_MESSAGES, ThrottleService } from '../../infra/throttle/throttle.service.js';
import { PasswordHasher } from '../identity/index.js';
import { PinInvalidError, PinLockedError } from './link-claims.service.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';
import { clock } from '../../shared/clock.js';

interface PinRow {
  distribution_id: string;
  ticket_id: string;
  pin_hash: string | null;
  pin_failures: number;
}

/**
 * The PIN a recipient brings to a link's claim. Checked only for a claim that brings one to a link that has one (a
 * link without a PIN costs none of this): counted against the IP's and the link's allowance (429), checked against the
 * link's PIN hash (argon2id), and a wrong one counted on the link's counter; the MAX_PIN_FAILURES-th locks the link (a
 * LinkPinLocked event, which its owner sees) until its owner sets a new PIN. Answers the hash the PIN was checked
 * against — the claim counts only while the link's PIN is still that one — or null when the link needs none.
 */
@Injectable()
export class LinkPins {
  private readonly logger = new Logger('LinkPins');

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly throttle: ThrottleService,
    private readonly hasher: PasswordHasher,
    private readonly commandBus: CommandBus,
  ) {}

  async check(code: string, pin: string, ip: string): Promise<string | null> {
    const [link] = await this.database.query<PinRow>(
      'select distribution_id, ticket_id, pin_hash, pin_failures from link_counters where code = $1',
      [code],
      'seatlink_link_pin',
    );
    // No such link (the claim says 404), or no PIN to check: the claim goes on as any other.
    if (!link?.pin_hash) return null;
    await this.throttle.consume('pin-ip', ip, THROTTLE_MESSAGES.pin);
    await this.throttle.consume('pin-link', code, THROTTLE_MESSAGES.pin);
    if (link.pin_failures >= MAX_PIN_FAILURES) throw new PinLockedError();
    if (await this.hasher.verify(link.pin_hash, pin)) return link.pin_hash;

    // Counted only against the PIN that was tried (a new PIN set meanwhile starts afresh).
    const [counted] = await this.database.query<{ pin_failures: number }>(
      `update link_counters set pin_failures = pin_failures + 1 where code = $1 and pin_hash = $2
       returning pin_failures`,
      [code, link.pin_hash],
    );
    if (counted && counted.pin_failures >= MAX_PIN_FAILURES) {
      if (counted.pin_failures === MAX_PIN_FAILURES) await this.lock(link, counted.pin_failures);
      throw new PinLockedError();
    }
    throw new PinInvalidError();
  }

  /**
   * Records the lock on the link's ticket stream (its owner's card and the audit log say it). The counter locks the
   * link whether or not this is recorded: a failure here is only logged.
   */
  private async lock(link: PinRow, failures: number) {
    try {
      await this.commandBus.execute(
        new TicketDistributionCommandMessage({
          type: 'LockPin',
          data: {
            ticketId: link.ticket_id,
            distributionId: link.distribution_id,
            pinHash: link.pin_hash!,
            failures,
            now: clock.now().toISOString(),
          },
        }),
      );
    } catch (err) {
      this.logger.warn(`link ${link.distribution_id}: its PIN lock was not recorded: ${safeErrorMessage(err)}`);
    }
  }
}
