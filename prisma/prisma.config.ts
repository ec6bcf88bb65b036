// Configuration for the Prisma CLI (generate, validate, format, and migrate when a
// PostgreSQL server is at hand). Purser itself migrates through src/migrations.ts.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'schema.prisma',
  migrations: { path: 'migrations' },
  // The CLI only needs a URL for commands that talk to a database; generate does not.
  datasource: process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : {},
});
