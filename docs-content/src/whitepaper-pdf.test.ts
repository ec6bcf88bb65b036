import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/build-whitepaper-pdf.mjs', import.meta.url));

describe('build-whitepaper-pdf.mjs', () => {
  it('prints the whitepaper to a PDF at the path it is given, with Debian\'s headless Chromium', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'purser-whitepaper-test-'));
    try {
      const output = join(dir, 'nested', 'security-whitepaper.pdf');
      const { stdout } = await promisify(execFile)(process.execPath, [script, output], { timeout: 110_000 });
      expect(stdout).toContain(output);
      const pdf = await readFile(output);
      expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
      // Several pages of text with embedded fonts; an empty or failed print is a few KiB.
      expect(pdf.length).toBeGreaterThan(30_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
