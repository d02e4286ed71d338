import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import type { LinkOpened } from './distribution.events.js';
import { linkOpensDecider, type OpenLink } from './link-opens.decider.js';

const AT = '2026-12-07T10:00:00.000Z';
const LINK = {
  distributionId: '00000000-0000-4000-8000-000000000001',
  ticketId: '00000000-0000-4000-8000-000000000002',
  userId: '00000000-0000-4000-8000-000000000003',
  state: 'active' as const,
};
const open = (command: Partial<OpenLink> = {}): OpenLink => ({
  link: LINK,
  deviceHash: 'hash-a',
  device: 'iPhone',
  referrer: 'instagram.com',
  at: AT,
  ...command,
});
const opened = (deviceHash: string, extra: Partial<LinkOpened['data']> = {}): LinkOpened => ({
  type: 'LinkOpened',
  data: {
    distributionId: LINK.distributionId,
    ticketId: LINK.ticketId,
    userId: LINK.userId,
    deviceHash,
    device: 'iPhone',
    referrer: 'instagram.com',
    at: AT,
    ...extra,
  },
});

const spec = deciderSpec(linkOpensDecider);

describe('a link opened by recipients: one event per link and device', () => {
  it('records the first open of a device', () => {
    spec
      .given([])
      .when(open())
      .then([opened('hash-a')]);
  });

  it('records nothing when the same device opens it again', () => {
    spec
      .given([opened('hash-a')])
      .when(open())
      .then([]);
  });

  it('records a second device, with its class and referrer (or none)', () => {
    spec
      .given([opened('hash-a')])
      .when(open({ deviceHash: 'hash-b', device: null, referrer: null }))
      .then([opened('hash-b', { device: null, referrer: null })]);
  });

  it('records nothing for an unknown link', () => {
    spec
      .given([])
      .when(open({ link: null }))
      .then([]);
  });

  it('records nothing for a withdrawn link', () => {
    spec
      .given([])
      .when(open({ link: { ...LINK, state: 'recalled' } }))
      .then([]);
  });

  it('still records an open of an expired link or one at its limit (the recipient did open it)', () => {
    spec
      .given([])
      .when(open({ link: { ...LINK, state: 'expired' } }))
      .then([opened('hash-a')]);
    spec
      .given([])
      .when(open({ link: { ...LINK, state: 'limit_reached' } }))
      .then([opened('hash-a')]);
  });
});
