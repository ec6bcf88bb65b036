import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv, outboundSettings } from './env';

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

  it('exports no Temporal SDK metrics unless TEMPORAL_METRICS_PORT names a port other than 0', () => {
    expect(loadEnv({}).TEMPORAL_METRICS_PORT).toBeUndefined();
    expect(loadEnv({ TEMPORAL_METRICS_PORT: '9464' }).TEMPORAL_METRICS_PORT).toBe(9464);
    for (const value of ['0', '70000', 'abc']) expect(() => loadEnv({ TEMPORAL_METRICS_PORT: value }), value).toThrow(/TEMPORAL_METRICS_PORT/);
  });

  it('takes a redis:// or rediss:// REDIS_URL, and nothing else', () => {
    expect(loadEnv({}).REDIS_URL).toBeUndefined();
    expect(loadEnv({ REDIS_URL: 'redis://127.0.0.1:6379' }).REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(loadEnv({ REDIS_URL: 'rediss://user:secret@cache.internal:6380/2' }).REDIS_URL).toBe('rediss://user:secret@cache.internal:6380/2');
    for (const value of ['http://127.0.0.1:6379', '127.0.0.1:6379']) expect(() => loadEnv({ REDIS_URL: value }), value).toThrow(/REDIS_URL/);
  });

  it('parses boolean flags', () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    expect(loadEnv({ RUN_WORKER: 'false', RUN_SERVER: '1', MASTER_KEY: key })).toMatchObject({ RUN_WORKER: false, RUN_SERVER: true });
  });

  it('refuses to run one role alone without a master key it is given, and generates one only for the whole product', () => {
    for (const roles of [{ RUN_WORKER: 'false' }, { RUN_SERVER: 'false' }, { RUN_SERVER: 'false', RUN_WORKER: 'false' }]) {
      expect(() => loadEnv(roles), JSON.stringify(roles)).toThrow(EnvError);
      expect(() => loadEnv(roles)).toThrow(/MASTER_KEY: must be set \(or MASTER_KEY_FILE\) when this process runs one role/);
      expect(loadEnv({ ...roles, MASTER_KEY_FILE: '/run/secrets/master_key' }).MASTER_KEY_FILE).toBe('/run/secrets/master_key');
    }
    expect(loadEnv({}).MASTER_KEY).toBeUndefined();
  });

  it('serves metrics on METRICS_PORT, bound to loopback unless METRICS_HOST says otherwise, never on PORT', () => {
    expect(loadEnv({}).METRICS_PORT).toBeUndefined();
    expect(loadEnv({}).METRICS_HOST).toBe('127.0.0.1');
    expect(loadEnv({ METRICS_PORT: '9300', METRICS_HOST: '0.0.0.0' })).toMatchObject({ METRICS_PORT: 9300, METRICS_HOST: '0.0.0.0' });
    expect(() => loadEnv({ METRICS_PORT: '3000' })).toThrow(/METRICS_PORT: must differ from PORT/);
    expect(() => loadEnv({ METRICS_PORT: '0' })).toThrow(/METRICS_PORT/);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset, empty, false or 0', () => {
    for (const value of [undefined, '', 'false', 'FALSE', '0', 'no']) expect(loadEnv({ TRUST_PROXY: value }).TRUST_PROXY, String(value)).toBe(false);
  });

  it('takes a hop count', () => {
    expect(loadEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ TRUST_PROXY: ' 2 ' }).TRUST_PROXY).toBe(2);
  });

  it('takes a comma-separated list of proxy addresses, CIDR blocks and proxy-addr range names', () => {
    expect(loadEnv({ TRUST_PROXY: '10.0.0.2, 10.1.0.0/16,fd00::/8,::1,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.2',
      '10.1.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it('refuses "true", which would trust any client\'s forged X-Forwarded-For, saying what to give instead', () => {
    for (const value of ['true', 'TRUE', 'yes']) {
      expect(() => loadEnv({ TRUST_PROXY: value }), value).toThrow(EnvError);
      expect(() => loadEnv({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY: .*number of proxies in front of the server \(e\.g\. 1\) or their addresses/);
    }
  });

  it('refuses blocks that cover every address, malformed entries and absurd hop counts', () => {
    for (const value of ['0.0.0.0/0', '::/0', '10.0.0.0/33', 'proxy.internal', '10.0.0.1,,10.0.0.2', '10.0.0.0/8/1', '11', '-1']) {
      expect(() => loadEnv({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('MASTER_KEY_FILE', () => {
  it('is taken as a path, and refused together with MASTER_KEY', () => {
    expect(loadEnv({ MASTER_KEY_FILE: '/run/secrets/master_key' }).MASTER_KEY_FILE).toBe('/run/secrets/master_key');
    const key = Buffer.alloc(32, 1).toString('base64');
    expect(() => loadEnv({ MASTER_KEY: key, MASTER_KEY_FILE: '/run/secrets/master_key' })).toThrow(/MASTER_KEY_FILE: set MASTER_KEY or MASTER_KEY_FILE, not both/);
  });
});

describe('outbound settings', () => {
  const real = { EVM_RPC_URL: 'https://sepolia.base.org' };

  it('lets the sandbox reach loopback by default, but not private ranges', () => {
    expect(outboundSettings(loadEnv({}))).toEqual({ allowLoopback: true, allowPrivate: false, allowlist: [] });
    expect(outboundSettings(loadEnv({ NODE_ENV: 'test' }))).toMatchObject({ allowLoopback: true, allowPrivate: false });
  });

  it('lets the sandbox reach private ranges with ALLOW_PRIVATE_URLS=true, and not even loopback with false', () => {
    expect(outboundSettings(loadEnv({ ALLOW_PRIVATE_URLS: 'true' }))).toMatchObject({ allowLoopback: true, allowPrivate: true });
    expect(outboundSettings(loadEnv({ ALLOW_PRIVATE_URLS: 'false' }))).toMatchObject({ allowLoopback: false, allowPrivate: false });
  });

  it('refuses loopback and private ranges outside the sandbox: a real EVM_RPC_URL, or production', () => {
    for (const source of [real, { NODE_ENV: 'production' }, { ...real, ALLOW_PRIVATE_URLS: 'false' }]) {
      expect(outboundSettings(loadEnv(source)), JSON.stringify(source)).toMatchObject({ allowLoopback: false, allowPrivate: false });
    }
  });

  it('refuses to start outside the sandbox with private URLs allowed', () => {
    for (const source of [{ ...real, ALLOW_PRIVATE_URLS: 'true' }, { NODE_ENV: 'production', ALLOW_PRIVATE_URLS: 'yes' }]) {
      expect(() => loadEnv(source), JSON.stringify(source)).toThrow(EnvError);
      expect(() => loadEnv(source)).toThrow(/ALLOW_PRIVATE_URLS: must not be true outside the sandbox .*OUTBOUND_ALLOWLIST/);
    }
  });

  it('reads OUTBOUND_ALLOWLIST, and names a bad entry', () => {
    expect(loadEnv({ ...real, OUTBOUND_ALLOWLIST: 'seller.internal, 10.0.0.0/8' }).OUTBOUND_ALLOWLIST).toEqual([
      { host: 'seller.internal' },
      { network: '10.0.0.0', prefix: 8, family: 'ipv4' },
    ]);
    expect(() => loadEnv({ OUTBOUND_ALLOWLIST: 'seller.internal, http://x/' })).toThrow(/OUTBOUND_ALLOWLIST: .*"http:\/\/x\/" is not a host name/);
  });

  it('takes an operator token of 32 characters or more, and no shorter one', () => {
    expect(loadEnv({}).OPERATOR_TOKEN).toBeUndefined();
    expect(loadEnv({ OPERATOR_TOKEN: 'a'.repeat(32) }).OPERATOR_TOKEN).toBe('a'.repeat(32));
    expect(() => loadEnv({ OPERATOR_TOKEN: 'too-short' })).toThrow(/OPERATOR_TOKEN: must be at least 32 characters/);
  });

  it('reads the owner rate limits, generous by default', () => {
    expect(loadEnv({})).toMatchObject({ OWNER_RATE_LIMIT_PER_MINUTE: 1_200, OWNER_SEARCH_RATE_LIMIT_PER_MINUTE: 120, OWNER_STREAM_LIMIT: 30 });
    expect(loadEnv({ OWNER_RATE_LIMIT_PER_MINUTE: '60', OWNER_STREAM_LIMIT: '2' })).toMatchObject({ OWNER_RATE_LIMIT_PER_MINUTE: 60, OWNER_STREAM_LIMIT: 2 });
    expect(() => loadEnv({ OWNER_SEARCH_RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/OWNER_SEARCH_RATE_LIMIT_PER_MINUTE/);
  });
});

describe('the assistant', () => {
  it('answers offline from the docs by default, with its limits', () => {
    const env = loadEnv({});
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.OPENAI_BASE_URL).toBeUndefined();
    expect(env).toMatchObject({ OPENAI_MODEL: 'gpt-4o-mini', ASSISTANT_RATE_LIMIT_PER_MINUTE: 20, ASSISTANT_TIMEOUT_MS: 30_000 });
  });

  it('reads a provider, and refuses a base URL without a key or a bad URL', () => {
    expect(loadEnv({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_MODEL: 'llama3' })).toMatchObject({
      OPENAI_API_KEY: 'sk-x',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_MODEL: 'llama3',
    });
    expect(() => loadEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(/OPENAI_API_KEY: must be set with OPENAI_BASE_URL/);
    expect(() => loadEnv({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'not a url' })).toThrow(/OPENAI_BASE_URL/);
    expect(() => loadEnv({ ASSISTANT_TIMEOUT_MS: '10' })).toThrow(/ASSISTANT_TIMEOUT_MS/);
  });
});
