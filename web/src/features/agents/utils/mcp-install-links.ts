// How an MCP host is pointed at an agent's MCP endpoint: the URL itself, the one-click install
// links VS Code and Cursor open, and the Claude Code command. The host meets the 401 and its
// OAuth challenge on its first call and sends the owner to the consent page, so no link carries
// a key. Formats: VS Code's MCP URL handler (code.visualstudio.com, "MCP developer guide") and
// Cursor's install links (cursor.com/docs/mcp/install-links).

/** The name the hosts list the server under. */
export const MCP_SERVER_NAME = 'purser';

/** The MCP endpoint below the agent API base (agentApiBaseUrl). */
export function mcpServerUrl(agentApiBase: string): string {
  return `${agentApiBase}/mcp`;
}

export interface McpInstallLinks {
  vscode: string;
  vscodeInsiders: string;
  cursor: string;
  /** A shell command, not a link. */
  claudeCode: string;
}

/** The configuration `code --add-mcp` takes, which the VS Code link carries as URL-encoded JSON. */
function vscodeInstallLink(scheme: 'vscode' | 'vscode-insiders', url: string): string {
  return `${scheme}:mcp/install?${encodeURIComponent(JSON.stringify({ name: MCP_SERVER_NAME, type: 'http', url }))}`;
}

/** Base64 of the UTF-8 bytes: btoa alone takes Latin-1 only. */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function mcpInstallLinks(url: string): McpInstallLinks {
  return {
    vscode: vscodeInstallLink('vscode', url),
    vscodeInsiders: vscodeInstallLink('vscode-insiders', url),
    // Base64 has '+', '/' and '=', which a query string would misread unencoded.
    cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=${MCP_SERVER_NAME}&config=${encodeURIComponent(base64(JSON.stringify({ url })))}`,
    claudeCode: `claude mcp add --transport http ${MCP_SERVER_NAME} ${url}`,
  };
}
