import { describe, expect, it } from 'vitest';
import { createThemeStore, THEME_STORAGE_KEY, type ThemeStorage } from './theme-store';

function memoryStorage(initial: Record<string, string> = {}): ThemeStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
  };
}

describe('theme store', () => {
  it('starts light when nothing is saved', () => {
    const store = createThemeStore({ storage: memoryStorage() });
    expect(store.getState().mode).toBe('light');
  });

  it('starts from the mode saved under the product key', () => {
    const store = createThemeStore({ storage: memoryStorage({ [THEME_STORAGE_KEY]: 'dark' }) });
    expect(store.getState().mode).toBe('dark');
  });

  it('treats an unknown saved value as light', () => {
    const store = createThemeStore({ storage: memoryStorage({ [THEME_STORAGE_KEY]: 'sepia' }) });
    expect(store.getState().mode).toBe('light');
  });

  it('applies the starting mode to the page root', () => {
    const root = { dataset: {} as Record<string, string | undefined> };
    createThemeStore({ storage: memoryStorage({ [THEME_STORAGE_KEY]: 'dark' }), root });
    expect(root.dataset.theme).toBe('dark');
  });

  it('applies each change to the page root and saves it', () => {
    const storage = memoryStorage();
    const root = { dataset: {} as Record<string, string | undefined> };
    const store = createThemeStore({ storage, root });

    store.getState().toggleMode();
    expect(root.dataset.theme).toBe('dark');
    expect(storage.data[THEME_STORAGE_KEY]).toBe('dark');

    store.getState().setMode('light');
    expect(root.dataset.theme).toBe('light');
    expect(storage.data[THEME_STORAGE_KEY]).toBe('light');
  });

  it('keeps working when the storage throws', () => {
    const broken: ThemeStorage = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    const store = createThemeStore({ storage: broken });
    store.getState().toggleMode();
    expect(store.getState().mode).toBe('dark');
  });
});
