import { loadConfig } from '../infra/config/config.js';
import { createContext } from '../bootstrap.js';
import {
  ParkedEventNotFoundError,
  ParkedEventNotParkedError,
  SubscriptionOperations,
} from '../infra/subscriptions/subscription-operations.js';

const USAGE = `npm run projections -- <command>
  status              every subscription's checkpoint, lag and parked events, and what makes health degraded
  list [status]       parked events (parked by default; retried, skipped or all)
  retry <id>          applies a parked event again
  skip <id>           marks a parked event as skipped (the subscription stays past it)`;

/** `npm run projections -- status|list|retry|skip`: the subscriptions and their parked events, for an operator. */
const [command, arg] = process.argv.slice(2);
const app = await createContext(loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }), 'cli');
const operations = app.get(SubscriptionOperations);
const by = `cli:${process.env.USER ?? 'operator'}`;
let exitCode = 0;
try {
  switch (command) {
    case 'status': {
      const status = await operations.status();
      console.table(status.subscriptions);
      console.log(
        `head ${status.head ?? '(empty)'}; host ${status.host ? `${status.host.owner}, heartbeat ${status.host.heartbeatAgeSeconds} s ago` : 'none'}`,
      );
      console.log(status.problems.length > 0 ? `degraded: ${status.problems.join('; ')}` : 'ok');
      break;
    }
    case 'list': {
      const wanted = (arg ?? 'parked') as 'parked' | 'retried' | 'skipped' | 'all';
      if (!['parked', 'retried', 'skipped', 'all'].includes(wanted)) throw new Error(USAGE);
      const parked = await operations.listParked(wanted);
      if (parked.length === 0) console.log('No parked events');
      for (const p of parked) {
        console.log(
          `${p.id}  ${p.status}  ${p.subscription}  ${p.event_type}  stream ${p.stream_id}  at ${p.position}`,
        );
        console.log(`    ${p.attempts} tries, parked ${p.parked_at}: ${p.error}`);
      }
      break;
    }
    case 'retry':
    case 'skip': {
      if (!arg) throw new Error(USAGE);
      const result = command === 'retry' ? await operations.retry(arg, by) : await operations.skip(arg, by);
      console.log(
        `${result.id}: ${result.status}${result.status === 'parked' ? ` (failed again: ${result.error})` : ''}`,
      );
      if (result.status === 'parked') exitCode = 2;
      break;
    }
    default:
      console.log(USAGE);
      exitCode = command ? 1 : 0;
  }
} catch (err) {
  console.error(
    err instanceof ParkedEventNotFoundError || err instanceof ParkedEventNotParkedError
      ? err.message
      : String(err instanceof Error ? err.message : err),
  );
  exitCode = 1;
} finally {
  await app.close();
}
process.exit(exitCode);
