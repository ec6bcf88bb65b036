import { describe, expect, it, vi } from 'vitest';
import { copyToClipboard } from './copy-to-clipboard';

function notifier() {
  return { success: vi.fn<(message: string) => void>(), error: vi.fn<(message: string) => void>() };
}

describe('copyToClipboard', () => {
  it('writes the value and says the thing was copied', async () => {
    const notify = notifier();
    const writeText = vi.fn(() => Promise.resolve());
    expect(await copyToClipboard('did:agnic:1', 'Agent DID', notify, { writeText })).toBe(true);
    expect(writeText).toHaveBeenCalledWith('did:agnic:1');
    expect(notify.success).toHaveBeenCalledWith('Agent DID copied to clipboard');
  });

  it('says there is nothing to copy for an empty value', async () => {
    const notify = notifier();
    expect(await copyToClipboard('', 'Agent DID', notify, { writeText: vi.fn() })).toBe(false);
    expect(notify.error).toHaveBeenCalledWith('No Agent DID available to copy');
  });

  it('says the copy failed when the clipboard refuses or is missing', async () => {
    const notify = notifier();
    await copyToClipboard('x', 'API key', notify, { writeText: () => Promise.reject(new Error('denied')) });
    await copyToClipboard('x', 'API key', notify, undefined);
    expect(notify.error).toHaveBeenNthCalledWith(1, 'Unable to copy API key');
    expect(notify.error).toHaveBeenNthCalledWith(2, 'Unable to copy API key');
  });
});
