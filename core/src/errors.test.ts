import { describe, expect, it } from 'vitest';
import { AppError, ERROR_STATUS, isAppError } from './errors';

describe('AppError', () => {
  it('carries a stable code, its HTTP status and the agent REST error shape', () => {
    const error = new AppError('INSUFFICIENT_FUNDS', 'Balance too low');
    expect(error.name).toBe('AppError');
    expect(error.httpStatus).toBe(422);
    expect(isAppError(error)).toBe(true);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ error: { code: 'INSUFFICIENT_FUNDS', message: 'Balance too low' } });
  });

  it('maps every code to a 4xx or 5xx status', () => {
    for (const status of Object.values(ERROR_STATUS)) expect(status).toBeGreaterThanOrEqual(400);
  });
});
