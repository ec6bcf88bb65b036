// Copying a value and saying so in a toast (spec section 8): 'No {thing} available to copy',
// '{thing} copied to clipboard', 'Unable to copy {thing}'.

export interface CopyNotifier {
  success: (message: string) => void;
  error: (message: string) => void;
}

export async function copyToClipboard(
  value: string | null | undefined,
  thing: string,
  notify: CopyNotifier,
  clipboard: Pick<Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard,
): Promise<boolean> {
  if (!value) {
    notify.error(`No ${thing} available to copy`);
    return false;
  }
  try {
    // Missing on insecure origins; writeText rejects when permission is refused.
    if (!clipboard) throw new Error('Clipboard unavailable');
    await clipboard.writeText(value);
    notify.success(`${thing} copied to clipboard`);
    return true;
  } catch {
    notify.error(`Unable to copy ${thing}`);
    return false;
  }
}
