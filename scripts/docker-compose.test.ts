// docker-compose.yml, read as data: there is no Docker engine in CI, so the deployment's
// promises (one shared master key from a secret, nothing published beyond the host but the
// server) are checked here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..');

interface Service {
  restart?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  ports?: string[];
  secrets?: Array<string | { source: string }>;
}
interface Compose {
  services: Record<string, Service>;
  secrets?: Record<string, { file?: string; environment?: string }>;
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;
const secretNames = (service: Service) => (service.secrets ?? []).map((secret) => (typeof secret === 'string' ? secret : secret.source));

describe('docker-compose.yml', () => {
  it('gives the server and the worker the same master key, from a compose secret', () => {
    for (const name of ['server', 'worker']) {
      const service = compose.services[name]!;
      expect(service.environment?.MASTER_KEY_FILE, name).toBe('/run/secrets/master_key');
      expect(service.environment, name).not.toHaveProperty('MASTER_KEY');
      expect(secretNames(service), name).toContain('master_key');
    }
    expect(compose.secrets?.master_key).toEqual({ file: './docker/secrets/master_key' });
  });

  it('restarts every service that exits, as npm start restarts its embedded children', () => {
    for (const [name, service] of Object.entries(compose.services)) expect(service.restart, name).toBe('unless-stopped');
  });

  it('has the sandbox chain write its state while running, not only on a clean exit', () => {
    expect(compose.services.chain!.command).toEqual(expect.arrayContaining(['--state=/data/chain.json', '--state-interval=10']));
  });

  it('keeps the secret file out of git', () => {
    const ignore = readFileSync(join(ROOT, 'docker/secrets/.gitignore'), 'utf8').split('\n');
    expect(ignore).toContain('*');
    expect(ignore).toContain('!.gitignore');
  });

  it('publishes only the server beyond the host: Temporal and its UI on loopback, PostgreSQL and the chain not at all', () => {
    expect(compose.services.temporal?.ports).toEqual(['127.0.0.1:7233:7233']);
    expect(compose.services['temporal-ui']?.ports).toEqual(['127.0.0.1:8233:8080']);
    expect(compose.services.postgres?.ports).toBeUndefined();
    expect(compose.services.chain?.ports).toBeUndefined();
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === 'server') continue;
      for (const port of service.ports ?? []) expect(port, `${name} publishes ${port}`).toMatch(/^127\.0\.0\.1:/);
    }
  });

  it('never trusts every proxy', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const trust = service.environment?.TRUST_PROXY;
      if (trust !== undefined) expect(String(trust).toLowerCase(), name).not.toMatch(/^(true|yes)$/);
    }
  });
});
