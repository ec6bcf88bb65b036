// Route '/responsible-ai': how the product keeps autonomous payments safe and accountable.
import { List, ListItem, ListItemText } from '@mui/material';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';

const principles = [
  { title: 'Human accountability', text: 'Every agent belongs to an owner who sets its limits and can suspend it.' },
  { title: 'Bounded autonomy', text: 'Spending rules and identity tiers are checked before every payment.' },
  { title: 'Traceability', text: 'Each payment leaves an append-only audit trail.' },
];

export function ResponsibleAiPage() {
  return (
    <PublicPageLayout
      title="Responsible AI"
      subtitle="Agents that pay must stay within limits their owners can see and change."
      actions={<BackToHomeLink />}
    >
      <List>
        {principles.map((principle) => (
          <ListItem key={principle.title} disableGutters>
            <ListItemText primary={principle.title} secondary={principle.text} />
          </ListItem>
        ))}
      </List>
    </PublicPageLayout>
  );
}
