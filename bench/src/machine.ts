// The machine a run measured, for bench/results/latest.json and the docs' Performance page.
import { cpus, release, totalmem, type } from 'node:os';
import pg from 'pg';
import type { Machine } from './report';

export async function describeMachine(databaseUrl: string): Promise<Omit<Machine, 'date'>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    const processors = cpus();
    return {
      cpu: processors[0]?.model.trim() ?? 'unknown',
      cores: processors.length,
      ramGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
      node: process.version,
      postgres: rows[0]?.server_version ?? 'unknown',
      os: `${type()} ${release()}`,
    };
  } finally {
    await client.end();
  }
}
