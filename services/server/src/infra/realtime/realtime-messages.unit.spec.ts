import { ADMINS_ROOM } from '@seatlink/contracts';
import { describe, expect, it } from 'vitest';
import { messagesOf } from './realtime.gateway.js';

describe('live updates as socket messages', () => {
  it('sends an update meant for its owner and the admins as one message to both rooms', () => {
    const payload = { user_id: 'u1', ticket_id: 't1', distribution_id: 'd1', clicks: 3 };
    expect(
      messagesOf([
        { to: { userId: 'u1' }, event: 'distribution.updated', payload },
        { to: ADMINS_ROOM, event: 'distribution.updated', payload: { ...payload } },
      ]),
    ).toEqual([{ rooms: ['user:u1', ADMINS_ROOM], event: 'distribution.updated', payload }]);
  });

  it('keeps different payloads, events and repeated rooms apart, in order', () => {
    const a = { user_id: 'u1', balance: 5 };
    const b = { user_id: 'u1', balance: 6 };
    expect(
      messagesOf([
        { to: { userId: 'u1' }, event: 'balance.updated', payload: a },
        { to: { userId: 'u1' }, event: 'balance.updated', payload: a },
        { to: { userId: 'u1' }, event: 'balance.updated', payload: b },
        { to: { userId: 'u2' }, event: 'balance.updated', payload: b },
      ]),
    ).toEqual([
      { rooms: ['user:u1'], event: 'balance.updated', payload: a },
      { rooms: ['user:u1', 'user:u2'], event: 'balance.updated', payload: b },
    ]);
  });
});
