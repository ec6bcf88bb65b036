import { describe, expect, it } from 'vitest';
import { isTransientDependencyError, unavailableError } from './transient-error';

/** The shapes as the product meets them (recorded from Prisma 7 with @prisma/adapter-pg, pg and @temporalio/client). */
const terminatedBackend = Object.assign(new Error('Invalid `prisma.user.count()` invocation'), {
  code: 'P2039',
  meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode: '57P01', kind: 'postgres', code: '57P01', message: 'terminating connection due to administrator command' } } },
});
const brokenClient = new Error('Client has encountered a connection error and is not queryable');
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const temporalUnavailable = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });

describe('isTransientDependencyError', () => {
  it('recognises a dropped, refused or restarting dependency, however deep in the causes', () => {
    for (const error of [terminatedBackend, brokenClient, refused, temporalUnavailable, new Error('wrapped', { cause: new Error('again', { cause: refused }) })]) {
      expect(isTransientDependencyError(error), String(error)).toBe(true);
    }
    expect(isTransientDependencyError(Object.assign(new Error('pool'), { code: 'P2024' }))).toBe(true);
    // The pool had no connection for a transaction within maxWait (a burst of payments).
    const noTransaction = Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' });
    expect(isTransientDependencyError(noTransaction)).toBe(true);
  });

  it('keeps a transaction that expired while running a real fault: it is not the pool', () => {
    const expired = Object.assign(new Error('Transaction API error: Transaction already closed: A commit cannot be executed on an expired transaction.'), { code: 'P2028' });
    expect(isTransientDependencyError(expired)).toBe(false);
  });

  it('leaves real faults alone: a constraint, a bad statement, a programming error', () => {
    const unique = Object.assign(new Error('Unique constraint failed'), { code: 'P2002' });
    const syntax = Object.assign(new Error('syntax'), { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '42601', code: '42601' } } } });
    for (const error of [unique, syntax, new TypeError('x is undefined'), 'a string', null, undefined]) {
      expect(isTransientDependencyError(error)).toBe(false);
    }
  });

  it('does not loop on a cause that refers back to itself', () => {
    const looped = new Error('loop') as Error & { cause?: unknown };
    looped.cause = looped;
    expect(isTransientDependencyError(looped)).toBe(false);
  });

  it('answers UNAVAILABLE (503), telling the client to send the same request again', () => {
    const error = unavailableError(brokenClient);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', httpStatus: 503 });
    expect(error.message).toContain('same Idempotency-Key');
    expect(error.message).not.toContain('connection error');
  });
});
