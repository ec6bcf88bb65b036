/**
 * The owner's audit log over tRPC (`audit.list`, `audit.verify`) and REST (/api/v1/audit-entries,
 * its verification and its JSON Lines export) on a real database: paging and filters, one
 * owner never seeing another's entries, both credentials, the chain verified and then broken
 * by an entry altered in the database, and the downloaded export checked by
 * `npm run audit:verify -- --file`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntryListView, auditExportLine, type AuditEntryView, type AuditExportLine } from '@purser/core';
import type { PrismaClient, TransactionClient } from '@purser/db';
import { appendAuditEvent, withAuditRetry } from '../src/services/audit/append-audit-event';
import { auditChainIdOf, hashAuditEvent } from '../src/services/audit/audit-hash';
import { verifyAuditExport } from '../src/services/audit/verify-audit-export';
import { auditExportFileName } from '../src/http/api-v1/audit-routes';
import { auditRouter } from '../src/trpc/audit/router';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let t: TestApp;
let prisma: PrismaClient;
let alice: SignedUpOwner;
let bob: SignedUpOwner;
let aliceKey: string;
let workDir: string;

/** The events seeded for each owner: [action, subject, hour of 2026-01-01 UTC]. */
const SEEDED: [string, string, number][] = [
  ['agent.created', 'agent:a1', 0],
  ['agent.suspended', 'agent:a1', 1],
  ['payment_intent.status_changed', 'payment_intent:p1', 2],
  ['payment_intent.status_changed', 'payment_intent:p2', 3],
  // Same letters as `payment_intent:` but for `_`: a prefix filter must take `_` literally.
  ['test.lookalike', 'paymentXintent:p3', 4],
  ['agent.reactivated', 'agent:a1', 5],
  ['policy.created', 'policy:x1', 6],
];

async function seed(ownerId: string, data: Record<string, string> = {}): Promise<void> {
  for (const [action, subject, hour] of SEEDED) {
    await withAuditRetry(prisma, (tx) =>
      appendAuditEvent(tx, { actor: `owner:${ownerId}`, action, subject, ownerId, data: { ...data, hour: String(hour) }, at: new Date(Date.UTC(2026, 0, 1, hour)) }),
    );
  }
}

/** The owner's stored events, newest first, as the API shows them. */
async function storedEntries(ownerId: string): Promise<AuditEntryView[]> {
  const rows = await prisma.auditEvent.findMany({ where: { ownerId }, orderBy: { seq: 'desc' } });
  return rows.map((row) => ({
    seq: row.seq.toString(),
    chainSeq: row.chainSeq.toString(),
    chainId: row.chainId,
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    subject: row.subject,
    data: row.data as Record<string, unknown>,
    prevHash: row.prevHash,
    hash: row.hash,
  }));
}

function trpcAs(owner: SignedUpOwner | null) {
  return auditRouter.createCaller({ ...t.deps, requestId: 'test', owner: owner && { userId: owner.userId, via: 'session' } });
}

function get(url: string, credentials: { key?: string; session?: string } = {}) {
  return t.app.inject({
    method: 'GET',
    url: `/api/v1${url}`,
    headers: credentials.key ? { authorization: `Bearer ${credentials.key}` } : {},
    cookies: credentials.session ? { purser_access: credentials.session } : {},
  });
}

/**
 * What someone with database access does: switch the append-only guard off, change one stored
 * event's data in place, switch the guard on again, all in one transaction (one connection).
 */
async function alterStoredEntry(ownerId: string, chainSeq: number, data: object): Promise<void> {
  await prisma.$transaction(async (tx: TransactionClient) => {
    await tx.$executeRawUnsafe('ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_append_only"');
    const changed = await tx.$executeRaw`
      UPDATE "audit_events" SET "data" = ${JSON.stringify(data)}::jsonb WHERE "chain_id" = ${auditChainIdOf(ownerId)} AND "chain_seq" = ${chainSeq}`;
    await tx.$executeRawUnsafe('ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_append_only"');
    if (changed !== 1) throw new Error(`expected to alter one entry, altered ${changed}`);
  });
}

function runVerifyFile(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // No database settings: checking a file must not need one.
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/run-ts.mjs', 'server/src/cli/audit-verify.ts', '--file', file], { cwd: ROOT, env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

function parseLines(body: string): AuditExportLine[] {
  return body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => auditExportLine.parse(JSON.parse(line)));
}

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  workDir = await mkdtemp(path.join(tmpdir(), 'purser-audit-api-'));
  alice = await signUpTestOwner(t.app, prisma, 'Alice');
  bob = await signUpTestOwner(t.app, prisma, 'Bob');
  await seed(alice.userId, { owner: 'alice' });
  await seed(bob.userId, { owner: 'bob' });
  // Creating the key is audited too: Alice's eighth entry.
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: alice.headers, payload: { name: 'audit reader', scopes: ['read'], expires_in_days: 30 } });
  expect(created.statusCode).toBe(201);
  aliceKey = (created.json() as { key: string }).key;
});

afterAll(async () => {
  await t?.cleanup();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('audit.list and GET /api/v1/audit-entries', () => {
  it("pages through the owner's entries newest first by seq cursor, every one exactly once, and never another owner's", async () => {
    const stored = await storedEntries(alice.userId);
    expect(stored).toHaveLength(SEEDED.length + 1);
    const caller = trpcAs(alice);
    const seen: AuditEntryView[] = [];
    let cursor: string | undefined;
    const pageSizes: number[] = [];
    do {
      const page = await caller.list({ limit: 3, ...(cursor ? { cursor } : {}) });
      pageSizes.push(page.entries.length);
      seen.push(...page.entries);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pageSizes).toEqual([3, 3, 2]);
    expect(seen).toEqual(stored);
    expect(seen.every((entry) => entry.chainId === `owner:${alice.userId}`)).toBe(true);
    expect(JSON.stringify(seen)).not.toContain('bob');

    const bobs = await trpcAs(bob).list();
    expect(bobs.entries.map((entry) => entry.data.owner)).toEqual(SEEDED.map(() => 'bob'));
    expect(bobs.nextCursor).toBeNull();
    // Bob's cursor into Alice's range still shows only Bob's entries.
    const fromAlicesCursor = await trpcAs(bob).list({ cursor: stored[0]!.seq });
    expect(fromAlicesCursor.entries.every((entry) => entry.data.owner === 'bob')).toBe(true);
  });

  it('filters by exact action, exact subject, subject prefix (with _ taken literally) and time range', async () => {
    const caller = trpcAs(alice);
    const subjects = async (input: Parameters<typeof caller.list>[0]) => (await caller.list(input)).entries.map((entry) => entry.subject);
    expect(await subjects({ action: 'payment_intent.status_changed' })).toEqual(['payment_intent:p2', 'payment_intent:p1']);
    expect(await subjects({ action: 'payment_intent' })).toEqual([]);
    expect(await subjects({ subject: 'agent:a1' })).toEqual(['agent:a1', 'agent:a1', 'agent:a1']);
    expect(await subjects({ subject: 'agent:a' })).toEqual([]);
    expect(await subjects({ subject: 'payment_intent:*' })).toEqual(['payment_intent:p2', 'payment_intent:p1']);
    expect(await subjects({ subject: 'payment%*' })).toEqual([]);
    expect(await subjects({ subject: 'agent\\:*' })).toEqual([]);
    expect(await subjects({ from: '2026-01-01T02:00:00Z', to: '2026-01-01T05:00:00Z' })).toEqual(['paymentXintent:p3', 'payment_intent:p2', 'payment_intent:p1']);
    expect(await subjects({ subject: 'agent:*', from: '2026-01-01T01:00:00Z', action: 'agent.reactivated' })).toEqual(['agent:a1']);
    await expect(caller.list({ limit: 101 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(caller.list({ from: 'yesterday' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(trpcAs(null).list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('answers over REST with an owner API key and with the session cookie alike, and 401 without credentials', async () => {
    const url = '/audit-entries?limit=2&subject=agent:*';
    const withKey = await get(url, { key: aliceKey });
    expect(withKey.statusCode).toBe(200);
    const body = auditEntryListView.parse(withKey.json());
    expect(body.entries.map((entry) => [entry.action, entry.subject])).toEqual([
      ['agent.reactivated', 'agent:a1'],
      ['agent.suspended', 'agent:a1'],
    ]);
    expect(body.nextCursor).toBe(body.entries[1]!.seq);
    const next = await get(`${url}&cursor=${body.nextCursor}`, { session: alice.accessToken });
    expect(next.statusCode).toBe(200);
    expect(auditEntryListView.parse(next.json())).toEqual({ entries: [expect.objectContaining({ action: 'agent.created' })], nextCursor: null });
    expect((await get('/audit-entries', { session: bob.accessToken })).json()).toEqual(await trpcAs(bob).list());

    for (const path of ['/audit-entries', '/audit-entries/verification', '/audit-entries/export']) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(401);
      expect(response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Missing or invalid credentials' } });
    }
    const invalid = await get('/audit-entries?limit=0', { key: aliceKey });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: { message: 'limit must be from 1 to 100' } });
  });

  it('is in the OpenAPI document, the export as JSON Lines of the export line schema', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, { get?: { operationId: string; parameters: { name: string }[]; responses: Record<string, { content: Record<string, { schema: { properties: object } }> }> } }>;
    };
    const list = document.paths['/audit-entries']?.get;
    expect(list?.operationId).toBe('listAuditEntries');
    expect(list?.parameters.map((parameter) => parameter.name).sort()).toEqual(['action', 'cursor', 'from', 'limit', 'subject', 'to']);
    expect(document.paths['/audit-entries/verification']?.get?.operationId).toBe('verifyAuditChain');
    const exported = document.paths['/audit-entries/export']?.get;
    expect(exported?.operationId).toBe('exportAuditEntries');
    expect(Object.keys(exported?.responses['200']?.content ?? {})).toEqual(['application/x-ndjson']);
    expect(Object.keys(exported?.responses['200']?.content['application/x-ndjson']?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['seq', 'chainId', 'chainSeq', 'prevHash', 'hash']),
    );
  });
});

describe('audit.verify and GET /api/v1/audit-entries/verification', () => {
  it("says verified through the owner's last entry, and empty for an owner without entries", async () => {
    // The seeded entries, the key's creation, and each earlier use of the key.
    const count = (await storedEntries(alice.userId)).length;
    const verified = { status: 'verified', checked: count, verifiedThrough: String(count), brokenAt: null, reason: null };
    expect(await trpcAs(alice).verify()).toEqual(verified);
    const overRest = await get('/audit-entries/verification', { key: aliceKey });
    expect(overRest.statusCode).toBe(200);
    // A key's use is an entry of its own, appended before the route reads the chain.
    expect(overRest.json()).toEqual({ ...verified, checked: count + 1, verifiedThrough: String(count + 1) });
    const newcomer = await signUpTestOwner(t.app, prisma, 'Newcomer');
    expect(await trpcAs(newcomer).verify()).toEqual({ status: 'empty', checked: 0, verifiedThrough: null, brokenAt: null, reason: null });
    await expect(trpcAs(null).verify()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('says broken at the position of an entry altered in the database, verified through the one before, and other owners stay verified', async () => {
    const carol = await signUpTestOwner(t.app, prisma, 'Carol');
    await seed(carol.userId, { owner: 'carol' });
    expect((await trpcAs(carol).verify()).status).toBe('verified');

    await alterStoredEntry(carol.userId, 4, { owner: 'carol', hour: '3', amount: '1000000' });
    const broken = { status: 'broken', checked: 4, verifiedThrough: '3', brokenAt: '4', reason: 'hash mismatch' };
    expect(await trpcAs(carol).verify()).toEqual(broken);
    expect((await get('/audit-entries/verification', { session: carol.accessToken })).json()).toEqual(broken);
    expect((await trpcAs(bob).verify()).status).toBe('verified');
  });
});

describe('GET /api/v1/audit-entries/export and audit:verify --file', () => {
  it('downloads the owner’s log as a JSON Lines attachment, oldest first, that audit:verify --file accepts', async () => {
    const response = await get('/audit-entries/export', { session: alice.accessToken });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${auditExportFileName()}"`);
    expect(auditExportFileName(new Date('2026-11-26T23:59:59Z'))).toBe('purser-audit-2026-11-26.jsonl');
    expect(response.body.endsWith('\n')).toBe(true);
    const lines = parseLines(response.body);
    const stored = (await storedEntries(alice.userId)).reverse();
    expect(lines.map((line) => [line.seq, line.chainSeq, line.hash])).toEqual(stored.map((entry) => [entry.seq, entry.chainSeq, entry.hash]));
    expect(lines.every((line) => line.ownerId === alice.userId)).toBe(true);
    // The API key gets the same file, and one line more: the entry recording this use of the key.
    const byKey = (await get('/audit-entries/export', { key: aliceKey })).body;
    expect(byKey.startsWith(response.body)).toBe(true);
    expect(parseLines(byKey.slice(response.body.length))).toEqual([expect.objectContaining({ action: 'owner_api_key.used', data: expect.objectContaining({ operation: 'exportAuditEntries', outcome: 'allowed' }) })]);

    const file = path.join(workDir, 'alice.jsonl');
    await writeFile(file, response.body);
    const result = await runVerifyFile(file);
    expect(result).toMatchObject({
      code: 0,
      stdout: `chain owner:${alice.userId}: ok, ${lines.length} events\naudit chains ok: ${lines.length} events in 1 chain\n`,
    });
  }, 60_000);

  it('makes audit:verify --file exit 1 at a tampered line, and finds a line re-hashed after tampering and a removed line', async () => {
    const lines = parseLines((await get('/audit-entries/export', { key: aliceKey })).body);
    const victim = lines[2]!;
    const file = path.join(workDir, 'edited.jsonl');
    const edited = lines.map((line) => (line === victim ? { ...line, data: { ...(line.data as object), hour: '9' } } : line));
    await writeFile(file, edited.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const result = await runVerifyFile(file);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      `chain owner:${alice.userId}: broken at chain_seq 3 (seq ${victim.seq}): hash mismatch (3 events checked)\n` +
        'audit chains broken: 1 of 1 chain (3 events in 1 chain checked)\n',
    );

    // The command's check, in this process: re-hashing the edited line hides it from the hash
    // check, and the next line's link shows it; a removed line leaves a gap in the positions.
    const forged = { ...victim, data: { owner: 'alice', hour: '9' } };
    forged.hash = hashAuditEvent({ ...forged, chainSeq: BigInt(forged.chainSeq), at: new Date(forged.at) });
    const rehashed = await verifyAuditExport(lines.map((line) => JSON.stringify(line === victim ? forged : line)));
    expect(rehashed.chains).toEqual([{ chainId: `owner:${alice.userId}`, ok: false, checked: 4, firstBad: { chainSeq: 4n, seq: BigInt(lines[3]!.seq), reason: 'broken link' } }]);
    const removed = await verifyAuditExport(lines.filter((line) => line !== victim).map((line) => JSON.stringify(line)));
    expect(removed.chains[0]?.firstBad).toEqual({ chainSeq: 4n, seq: BigInt(lines[3]!.seq), reason: 'sequence gap' });
    expect((await verifyAuditExport(lines.map((line) => JSON.stringify(line)))).ok).toBe(true);
  }, 60_000);

  it('makes audit:verify --file exit 2 for a file that is not an audit export', async () => {
    const file = path.join(workDir, 'not-an-export.jsonl');
    await writeFile(file, '{"hello":"world"}\n');
    const wrong = await runVerifyFile(file);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`${file}: line 1: not an audit export line`);
  }, 60_000);
});
