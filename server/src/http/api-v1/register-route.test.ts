import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { apiRoutes } from './routes';
import type { ApiRoute } from './define-route';
import { registerRoute } from './register-route';

// Registering reads no dependency: nothing here is called.
const deps = {} as AppDeps;
const owners = { deps };

describe('registerRoute', () => {
  it('refuses an owner route that names no API key scope, even one cast past the type', () => {
    const scopeless = { method: 'GET', path: '/x', operationId: 'scopeless', summary: 'x', tag: 'x', response: z.object({}), handler: async () => ({}) } as unknown as ApiRoute;
    expect(() => registerRoute(Fastify(), scopeless, { deps, owners })).toThrow('scopeless is an owner route without the API key scope it requires');
  });

  it('registers every /api/v1 route: each owner route names its scope', () => {
    const app = Fastify();
    for (const route of apiRoutes) registerRoute(app, route, { deps, prefix: '/api/v1', owners });
    expect(apiRoutes.filter((route) => (route.auth ?? 'owner') === 'owner').every((route) => typeof route.scope === 'string')).toBe(true);
  });
});
