import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PIN_GUESS_ALERT_AT, PIN_GUESS_WINDOW_MINUTES } from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { type PinTrier, ThrottleService } from '../../infra/throttle/throttle.service.js';
import { PasswordHasher } from '../identity/index.js';
import { PinInvalidError } from './link-claims.service.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';
import { clock } from '../../shared/clock.js';

interface PinRow {
  distribution_id: string;
  ticket_id: string;
  pin_hash: string | null;
}

/**
 * The PIN a recipient brings to a link's claim. Checked only for a claim that brings one to a link that has one (a
 * link without a PIN costs none of this): counted against the device's and the address's tries (slowed with growing
 * waits, 429 — ThrottleService.takePinTry), then checked against the link's PIN hash (argon2id). A wrong one is counted
 * on the link's counter within a window of PIN_GUESS_WINDOW_MINUTES; the PIN_GUESS_ALERT_AT-th of a window tells the
 * link's owner (a LinkPinGuessed event). Nothing locks the link: the right PIN from a device and address that are not
 * themselves slowed always opens it. Answers the hash the PIN was checked against — the claim counts only while the
 * link's PIN is still that one — or null when the link needs none.
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

  async check(code: string, pin: string, trier: PinTrier): Promise<string | null> {
    const [link] = await this.database.query<PinRow>(
      'select distribution_id, ticket_id, pin_hash from link_counters where code = $1',
      [code],
      'seatlink_link_pin',
    );
    // No such link (the claim says 404), or no PIN to check: the claim goes on as any other.
    if (!link?.pin_hash) return null;
    await this.throttle.takePinTry(trier);
    if (await this.hasher.verify(link.pin_hash, pin)) {
      await this.throttle.forgivePinDevice(trier);
      return link.pin_hash;
    }

    // Counted only against the PIN that was tried (a new PIN set meanwhile starts afresh), in windows: the first wrong
    // PIN after a window has passed starts the next. Under the row's lock, so each count is given once.
    const [counted] = await this.database.query<{ pin_failures: number; pin_failures_since: Date }>(
      `update link_counters
       set pin_failures = case when pin_failures_since > now() - make_interval(mins => $3) then pin_failures + 1 else 1 end,
           pin_failures_since = case when pin_failures_since > now() - make_interval(mins => $3) then pin_failures_since
                                     else now() end
       where code = $1 and pin_hash = $2
       returning pin_failures, pin_failures_since`,
      [code, link.pin_hash, PIN_GUESS_WINDOW_MINUTES],
    );
    if (counted?.pin_failures === PIN_GUESS_ALERT_AT)
      await this.tellOwner(link, counted.pin_failures, counted.pin_failures_since);
    throw new PinInvalidError();
  }

  /**
   * Records the wrong PINs on the link's ticket stream (its owner's bell, webhook and the audit log say it). The
   * recipient's answer does not wait on its outcome: a failure here is only logged.
   */
  private async tellOwner(link: PinRow, failures: number, since: Date) {
    try {
      await this.commandBus.execute(
        new TicketDistributionCommandMessage({
          type: 'ReportPinGuesses',
          data: {
            ticketId: link.ticket_id,
            distributionId: link.distribution_id,
            pinHash: link.pin_hash!,
            failures,
            since: new Date(since).toISOString(),
            now: clock.now().toISOString(),
          },
        }),
      );
    } catch (err) {
      this.logger.warn(`link ${link.distribution_id}: its wrong PINs were not recorded: ${safeErrorMessage(err)}`);
    }
  }
}
