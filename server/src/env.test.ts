import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env';

describe('loadEnv', () => {
  it('applies the embedded defaults when nothing is set', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe(path.resolve('.data'));
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.TEMPORAL_ADDRESS).toBeUndefined();
    expect(env.RUN_WORKER).toBe(true);
  });

  it('treats empty strings as unset', () => {
    expect(loadEnv({ DATABASE_URL: '', PORT: '' }).DATABASE_URL).toBeUndefined();
  });

  it('lists every bad variable in one error', () => {
    let message = '';
    try {
      loadEnv({ PORT: 'abc', DATABASE_URL: 'mysql://x', TEMPORAL_ADDRESS: 'nohost' });
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      message = (error as Error).message;
    }
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('TEMPORAL_ADDRESS');
  });

  it('parses boolean flags', () => {
    expect(loadEnv({ RUN_WORKER: 'false', RUN_SERVER: '1' })).toMatchObject({ RUN_WORKER: false, RUN_SERVER: true });
  });
});
