/**
 * Owner passwords: argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane), stored as
 * the PHC string ($argon2id$v=19$m=19456,t=2,p=1$...). Sign-in for an unknown email
 * verifies against a dummy hash with the same parameters, so both answers take as long.
 */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 declares its Algorithm as an ambient const enum, which isolatedModules
// cannot read; 2 is Algorithm.Argon2id (also the library's default).
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a failed sign-in, not a server error.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the same work as a real verification, for an email with no account. Always false. */
export async function verifyWithoutAccount(password: string): Promise<false> {
  await verifyPassword(await prepareDummyHash(), password);
  return false;
}

/** Computes the dummy hash ahead of the first sign-in (called when the routes register). */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString('base64url'));
  return dummyHash;
}
