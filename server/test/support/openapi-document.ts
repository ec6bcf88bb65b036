/**
 * The OpenAPI document as GET /api/v1/openapi.json serves it, built without a database:
 * building it needs only the public URL, and no route is called.
 */
import Fastify from 'fastify';
import { apiV1Plugin } from '../../src/http/api-v1/plugin';
import type { AppDeps } from '../../src/deps';

export async function servedOpenApiDocument(publicUrl: string): Promise<unknown> {
  const app = Fastify();
  try {
    await app.register(apiV1Plugin, { deps: { publicUrl } as AppDeps });
    const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${response.statusCode}: ${response.body}`);
    return response.json();
  } finally {
    await app.close();
  }
}
