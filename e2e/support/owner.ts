// Owners for the journeys: invitation codes minted with the product's own CLI against the
// running product (E2E_DATA_DIR, set by scripts/test.mjs), and owners signed up over the API
// when a spec is not about signing up.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A fresh single-use invitation code. */
export function invitationCode(uses = 1): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the e2e suite through `npm test -- e2e`');
  const output = execFileSync(process.execPath, ['scripts/run-ts.mjs', 'server/src/cli/invite.ts', '--uses', String(uses)], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  return output.trim().split('\n').pop()!;
}

export interface TestOwner {
  email: string;
  password: string;
  fullName: string;
  accessToken: string;
}

export function newOwnerDetails() {
  return { email: `owner-${randomUUID().slice(0, 8)}@example.test`, password: 'correct horse battery', fullName: 'E2E Owner' };
}

/** An owner signed up through /auth/v1/signup (not through the page). */
export async function signUpOwner(request: APIRequestContext): Promise<TestOwner> {
  const details = newOwnerDetails();
  const response = await request.post('/auth/v1/signup', {
    data: { email: details.email, password: details.password, data: { full_name: details.fullName, invitation_code: invitationCode() } },
  });
  if (!response.ok()) throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
  const body = (await response.json()) as { access_token: string };
  return { ...details, accessToken: body.access_token };
}
