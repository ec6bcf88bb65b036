/**
 * `npm run db:migrate:new -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
 * with the SQL that brings the committed migrations up to schema.prisma. Offline: the diff
 * runs against a throwaway in-memory PGlite. Hand-written SQL (CHECKs, triggers) can be
 * appended to the generated file before it is committed.
 */
import path from 'node:path';
import { createMigration } from '../migrations';

const name = process.argv[2];
if (!name) {
  console.error('usage: db:migrate:new <name>');
  process.exit(2);
}

const started = Date.now();
const created = await createMigration(name);
if (created) {
  console.log(`Created ${path.relative(process.cwd(), created.directory)}/migration.sql in ${Date.now() - started} ms`);
} else {
  console.log('schema.prisma matches the migrations; nothing to write.');
}
