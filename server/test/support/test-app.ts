/**
 * A real server on a real database for route and service tests: buildApp() over
 * openTestDatabase() (PostgreSQL or PGlite per PURSER_TEST_DB), exercised with app.inject().
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { openTestDatabase } from '@purser/db/testing';
import { buildApp } from '../../src/app';
import { createHealthChecker } from '../../src/health';
import type { AppDeps } from '../../src/trpc/context';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  cleanup(): Promise<void>;
}

export async function createTestApp(): Promise<TestApp> {
  const { db, cleanup } = await openTestDatabase();
  const ok = async () => {};
  const deps: AppDeps = {
    db,
    logger: pino({ level: 'silent' }),
    // Health is not under test here; Temporal is covered by the temporal suite.
    health: createHealthChecker({ db, pingTemporal: ok, pingWorker: ok, runWorkflow: ok }),
    masterKey: randomBytes(32),
    publicUrl: 'http://127.0.0.1:3000',
  };
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    async cleanup() {
      await app.close();
      await cleanup();
    },
  };
}
