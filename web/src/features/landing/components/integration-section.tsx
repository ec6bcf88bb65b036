// Landing section 6, 'Quick integration': three workflows to pick from, each a real TypeScript
// file (../snippets) shown as it is, with a button that copies it.
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import { Box, Button, Paper, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { toast } from 'sonner';
import { copyToClipboard } from '../../../shared/clipboard/copy-to-clipboard';
import { INTEGRATION_WORKFLOWS, type IntegrationWorkflow } from '../data/integration-workflows';
import { LandingSection } from './landing-section';

const tabId = (workflow: IntegrationWorkflow) => `integration-tab-${workflow.id}`;
const panelId = (workflow: IntegrationWorkflow) => `integration-panel-${workflow.id}`;

function SnippetPanel({ workflow, selected }: { workflow: IntegrationWorkflow; selected: boolean }) {
  return (
    <Box role="tabpanel" id={panelId(workflow)} aria-labelledby={tabId(workflow)} hidden={!selected} sx={{ mt: 3 }}>
      <Typography color="text.secondary">{workflow.summary}</Typography>
      <Paper
        variant="outlined"
        sx={{ mt: 2, overflow: 'hidden', bgcolor: '#0f172a', color: '#e2e8f0', borderColor: 'divider' }}
      >
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 1,
            px: 2,
            py: 1,
            borderBottom: '1px solid #334155',
          }}
        >
          <Typography component="span" sx={{ fontFamily: 'monospace', fontSize: 14, color: '#cbd5e1' }}>
            {workflow.fileName}
          </Typography>
          <Button
            size="small"
            variant="outlined"
            startIcon={<ContentCopyRounded />}
            onClick={() => void copyToClipboard(workflow.code, 'Snippet', toast)}
            sx={{ color: '#e2e8f0', borderColor: '#64748b', '&:hover': { borderColor: '#e2e8f0', bgcolor: 'rgba(226, 232, 240, 0.08)' } }}
          >
            Copy code
          </Button>
        </Box>
        <Box
          component="pre"
          role="region"
          aria-label={`${workflow.fileName} source`}
          // Long lines scroll sideways: the region must be reachable with the keyboard.
          tabIndex={0}
          sx={{
            m: 0,
            p: 2,
            overflowX: 'auto',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
            fontSize: 13,
            lineHeight: 1.6,
            '&:focus-visible': { outline: '2px solid #818cf8', outlineOffset: -2 },
          }}
        >
          <code>{workflow.code}</code>
        </Box>
      </Paper>
    </Box>
  );
}

export function IntegrationSection() {
  const [selected, setSelected] = useState(0);
  return (
    <LandingSection
      id="integration"
      title="Quick integration"
      lead="Three workflows over the owner REST API with our TypeScript SDK, @purser/sdk. Each snippet is a TypeScript file that our test suite type-checks against the SDK and runs against a started product."
    >
      <Tabs
        value={selected}
        onChange={(_, value: number) => setSelected(value)}
        aria-label="Integration workflows"
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{ mt: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {INTEGRATION_WORKFLOWS.map((workflow) => (
          <Tab key={workflow.id} id={tabId(workflow)} aria-controls={panelId(workflow)} label={workflow.label} />
        ))}
      </Tabs>
      {INTEGRATION_WORKFLOWS.map((workflow, index) => (
        <SnippetPanel key={workflow.id} workflow={workflow} selected={index === selected} />
      ))}
    </LandingSection>
  );
}
