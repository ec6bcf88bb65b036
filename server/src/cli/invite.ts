/**
 * `npm run invite -- --uses N --expires 7d`: creates an invitation code and prints it alone
 * on the last line. Works while `npm start` runs: with PGlite it goes through the running
 * product's socket instead of opening the database files a second time.
 */
import { parseArgs } from 'node:util';
import { isAppError } from '@purser/core';
import { openDatabaseForTool } from '@purser/db';
import { loadEnv } from '../env';
import { createInvitation, parseDuration } from '../services/invitations/create-invitation';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      uses: { type: 'string', default: '1' },
      expires: { type: 'string', default: '7d' },
    },
  });
  const env = loadEnv();
  const maxUses = Number(values.uses);
  const expiresAt = new Date(Date.now() + parseDuration(values.expires));

  const db = await openDatabaseForTool({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const invitation = await createInvitation(db.prisma, { maxUses, expiresAt });
    process.stderr.write(`Invitation code: ${invitation.maxUses} use(s), expires ${invitation.expiresAt.toISOString()}\n`);
    process.stdout.write(`${invitation.code}\n`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(isAppError(error) ? `${error.code}: ${error.message}` : error);
  process.exit(1);
});
