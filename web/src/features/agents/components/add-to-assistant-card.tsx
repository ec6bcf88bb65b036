// The connect page's first setup card: the agent's MCP URL for an assistant (Claude, ChatGPT,
// VS Code, Cursor, Claude Code), which connects through Purser's consent page (OAuth) instead
// of the DID and API key headers that scripts send.
import { Box, Button, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { SectionCard } from '../../../shared/components/section-card';
import { mcpInstallLinks, mcpServerUrl } from '../utils/mcp-install-links';
import { CopyableValue } from './mcp-setup-cards';

function Subheading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mt: 2, mb: 0.5 }}>
      {children}
    </Typography>
  );
}

export function AddToAssistantCard({ base }: { base: string }) {
  const url = mcpServerUrl(base);
  const links = mcpInstallLinks(url);
  return (
    <SectionCard title="Add to your assistant">
      <Typography variant="body2" color="text.secondary">
        MCP server URL
      </Typography>
      <CopyableValue value={url} thing="MCP server URL" />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        Give this URL to your assistant. It opens Purser&apos;s consent page, where you pick this agent, what the assistant may do (read, pay, paid
        fetch) and an optional spending cap. No API key is pasted anywhere; you can revoke the connection on the agent&apos;s page.
      </Typography>

      <Subheading>One-click install</Subheading>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button href={links.vscode} variant="outlined" size="small">
          Install in VS Code
        </Button>
        <Button href={links.vscodeInsiders} variant="outlined" size="small">
          Install in VS Code Insiders
        </Button>
        <Button href={links.cursor} variant="outlined" size="small">
          Install in Cursor
        </Button>
      </Stack>

      <Subheading>Claude Code</Subheading>
      <CopyableValue value={links.claudeCode} thing="Claude Code command" />

      <Subheading>Claude and ChatGPT</Subheading>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        <Typography component="li" variant="body2">
          Claude: in Settings, Connectors, add a custom connector and paste the URL.
        </Typography>
        <Typography component="li" variant="body2">
          ChatGPT: in Settings, Apps &amp; Connectors, create a connector (developer mode) and paste the URL.
        </Typography>
      </Box>

      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        Scripts, n8n and Make keep using the agent&apos;s DID and API key, below.
      </Typography>
    </SectionCard>
  );
}
