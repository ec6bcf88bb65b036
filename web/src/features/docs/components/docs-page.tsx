// Route '/docs': the documentation hub.
import { Button, List, ListItem, ListItemText, ListSubheader } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';

const groups = [
  { title: 'Getting started', items: ['Introduction', 'Quick start'] },
  { title: 'Product tour', items: ['Dashboard', 'Governance'] },
  { title: 'Automation', items: ['MCP API', 'Workflow recipes'] },
];

export function DocsPage() {
  return (
    <PublicPageLayout
      title="Documentation"
      subtitle="Create agent wallets, set spending rules and connect agents over MCP, REST and x402."
      actions={
        <>
          <BackToHomeLink />
          <Button component={RouterLink} to="/dashboard" color="inherit">
            Go to dashboard
          </Button>
        </>
      }
    >
      {groups.map((group) => (
        <List key={group.title} dense subheader={<ListSubheader disableSticky>{group.title}</ListSubheader>}>
          {group.items.map((item) => (
            <ListItem key={item}>
              <ListItemText primary={item} />
            </ListItem>
          ))}
        </List>
      ))}
    </PublicPageLayout>
  );
}
