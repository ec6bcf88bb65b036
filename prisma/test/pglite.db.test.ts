/**
 * The embedded default: PGlite files under DATA_DIR, owned by one process, reachable by
 * command-line tools through that process's socket. Independent of PURSER_TEST_DB.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, openDatabaseForTool, type Database } from '../src/index';

let dataDir: string;
const opened: Database[] = [];

async function track(database: Promise<Database>): Promise<Database> {
  const db = await database;
  opened.push(db);
  return db;
}

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'purser-data-'));
});

afterEach(async () => {
  for (const db of opened.splice(0).reverse()) await db.close().catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
});

describe('on-disk PGlite', () => {
  it('keeps committed data across close and reopen', async () => {
    const first = await track(openDatabase({ dataDir }));
    expect(first.kind).toBe('pglite');
    await first.prisma.invitationCode.create({ data: { codeHash: 'KEEP-ME', maxUses: 3 } });
    await first.close();

    const second = await track(openDatabase({ dataDir }));
    const code = await second.prisma.invitationCode.findUniqueOrThrow({ where: { codeHash: 'KEEP-ME' } });
    expect(code.maxUses).toBe(3);
  }, 120_000);

  it('is refused to a second opener while its owner holds it, and the lock goes away on close', async () => {
    const owner = await openDatabase({ dataDir });
    const lock = JSON.parse(await readFile(path.join(dataDir, 'pglite.lock.json'), 'utf8'));
    expect(lock).toEqual({ pid: process.pid, socketPort: null });

    await expect(openDatabase({ dataDir })).rejects.toThrow(/is in use by process \d+ \(this process\)/);
    await expect(openDatabaseForTool({ dataDir })).rejects.toThrow(/serves no socket/);

    await owner.close();
    await expect(readFile(path.join(dataDir, 'pglite.lock.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  }, 120_000);

  it('takes over a lock left by a process that no longer runs', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(dataDir, 'pglite.lock.json'), JSON.stringify({ pid: 2 ** 22 + 1, socketPort: 1 }));
    const warnings: object[] = [];
    const db = await track(openDatabase({ dataDir, logger: { info() {}, warn: (obj) => warnings.push(obj) } }));
    await db.ping();
    expect(warnings).toHaveLength(1);
  }, 120_000);
});

describe('openDatabaseForTool', () => {
  it('reaches a database that a running product holds, through its socket', async () => {
    const product = await track(openDatabase({ dataDir, serveSocket: true }));
    const lock = JSON.parse(await readFile(path.join(dataDir, 'pglite.lock.json'), 'utf8'));
    expect(lock.pid).toBe(process.pid);
    expect(lock.socketPort).toEqual(expect.any(Number));

    const tool = await track(openDatabaseForTool({ dataDir }));
    expect(tool.kind).toBe('pglite');
    await tool.prisma.invitationCode.create({ data: { codeHash: 'FROM-TOOL', maxUses: 1 } });

    const seen = await product.prisma.invitationCode.findUniqueOrThrow({ where: { codeHash: 'FROM-TOOL' } });
    expect(seen.uses).toBe(0);
  }, 120_000);

  it("a tool's statements never run inside the product's open transaction, nor the product's inside the tool's", async () => {
    const product = await track(openDatabase({ dataDir, serveSocket: true }));
    const tool = await track(openDatabaseForTool({ dataDir }));
    const pause = () => new Promise((resolve) => setTimeout(resolve, 300));

    const productTx = product.prisma
      .$transaction(async (tx) => {
        await tx.invitationCode.create({ data: { codeHash: 'PRODUCT-ROLLED-BACK' } });
        await pause();
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Waits for the product's transaction instead of joining it (and being rolled back with it).
    await tool.prisma.invitationCode.create({ data: { codeHash: 'TOOL-COMMITTED' } });
    expect(await productTx).toBe('rolled back');

    const toolTx = tool.prisma
      .$transaction(async (tx) => {
        await tx.invitationCode.create({ data: { codeHash: 'TOOL-ROLLED-BACK' } });
        await pause();
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const codesSeenMeanwhile = (await product.prisma.invitationCode.findMany()).map((code) => code.codeHash);
    expect(await toolTx).toBe('rolled back');

    expect(codesSeenMeanwhile).toEqual(['TOOL-COMMITTED']);
    expect((await product.prisma.invitationCode.findMany()).map((code) => code.codeHash)).toEqual(['TOOL-COMMITTED']);
  }, 120_000);

  it('opens the PGlite files directly when no process holds them', async () => {
    const tool = await track(openDatabaseForTool({ dataDir }));
    expect(tool.kind).toBe('pglite');
    await tool.ping();
  }, 120_000);
});
