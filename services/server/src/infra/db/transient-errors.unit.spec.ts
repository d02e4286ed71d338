import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { safeErrorMessage } from './db-errors.js';
import { isTransientDatabaseError } from './transient-errors.js';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isTransientDatabaseError', () => {
  it.each(['08006', '57P01', '57P03', '53300', '40001', '40P01', '55P03', '55006', '57014', '25006', 'ECONNREFUSED'])(
    'retries %s',
    (code) => expect(isTransientDatabaseError(pgError(code))).toBe(true),
  );

  it.each(['23505', '22P02', '22007', '42P01', '23514'])(
    'does not retry %s (the statement or the data is at fault)',
    (code) => expect(isTransientDatabaseError(pgError(code))).toBe(false),
  );

  it("looks under drizzle's wrapper", () => {
    const wrapped = new DrizzleQueryError('insert into users ...', ['$argon2id$secret'], pgError('57014', 'canceling'));
    expect(isTransientDatabaseError(wrapped)).toBe(true);
    expect(safeErrorMessage(wrapped)).toBe('canceling (57014)');
    expect(safeErrorMessage(wrapped)).not.toContain('argon2');
  });
});
