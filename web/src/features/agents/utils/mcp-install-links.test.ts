import { describe, expect, it } from 'vitest';
import { MCP_SERVER_NAME, mcpInstallLinks, mcpServerUrl } from './mcp-install-links';

const BASE = 'https://pay.example.com/functions/v1/mcp-server';
const URL_ = `${BASE}/mcp`;

function vscodeConfig(link: string, scheme: string): unknown {
  const prefix = `${scheme}:mcp/install?`;
  expect(link.startsWith(prefix)).toBe(true);
  return JSON.parse(decodeURIComponent(link.slice(prefix.length)));
}

function cursorConfig(link: string): { name: string | null; config: unknown } {
  const parsed = new URL(link);
  expect(`${parsed.protocol}//${parsed.host}${parsed.pathname}`).toBe('cursor://anysphere.cursor-deeplink/mcp/install');
  const encoded = parsed.searchParams.get('config') ?? '';
  const bytes = Uint8Array.from(atob(encoded), (character) => character.charCodeAt(0));
  return { name: parsed.searchParams.get('name'), config: JSON.parse(new TextDecoder().decode(bytes)) };
}

describe('mcpServerUrl', () => {
  it('is the MCP endpoint below the agent API base', () => {
    expect(mcpServerUrl(BASE)).toBe(URL_);
  });
});

describe('mcpInstallLinks', () => {
  it('gives VS Code and VS Code Insiders the http server under the name purser at the URL', () => {
    const links = mcpInstallLinks(URL_);
    expect(vscodeConfig(links.vscode, 'vscode')).toEqual({ name: MCP_SERVER_NAME, type: 'http', url: URL_ });
    expect(vscodeConfig(links.vscodeInsiders, 'vscode-insiders')).toEqual({ name: MCP_SERVER_NAME, type: 'http', url: URL_ });
  });

  it("gives Cursor the URL in its base64 config, which survives the query string's decoding", () => {
    // A URL whose base64 has '+' and '/' (a bare query-string '+' would read as a space).
    const urls = [URL_, 'http://127.0.0.1:4173/functions/v1/mcp-server/mcp', 'https://b\u00fccher.example/functions/v1/mcp-server/mcp?>?'];
    expect(urls.some((url) => /%2B|%2F/.test(mcpInstallLinks(url).cursor))).toBe(true);
    for (const url of urls) {
      expect(cursorConfig(mcpInstallLinks(url).cursor)).toEqual({ name: MCP_SERVER_NAME, config: { url } });
    }
  });

  it('gives Claude Code a command that adds the URL over the http transport', () => {
    expect(mcpInstallLinks(URL_).claudeCode).toBe(`claude mcp add --transport http purser ${URL_}`);
  });

  it('carries no key or header', () => {
    const links = mcpInstallLinks(URL_);
    expect(Object.keys(vscodeConfig(links.vscode, 'vscode') as object)).toEqual(['name', 'type', 'url']);
    expect(Object.keys(vscodeConfig(links.vscodeInsiders, 'vscode-insiders') as object)).toEqual(['name', 'type', 'url']);
    expect(Object.keys(cursorConfig(links.cursor).config as object)).toEqual(['url']);
  });
});
