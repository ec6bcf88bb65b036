// The responsible-AI contact: the content's own words, then the email address (a mailto
// link), the Slack channel and the office hours.
import ChatRounded from '@mui/icons-material/ChatRounded';
import EmailRounded from '@mui/icons-material/EmailRounded';
import ScheduleRounded from '@mui/icons-material/ScheduleRounded';
import { Box, Card, CardContent, Link, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { ContentBlocks } from '../../../shared/content/content-blocks';
import type { ResponsibleAiContent } from '../data/responsible-ai-content';
import type { BlockGroup } from '../utils/group-by-heading';

interface ContactCardProps {
  group: BlockGroup;
  contact: ResponsibleAiContent['contact'];
  officeHours: string;
}

export function ContactCard({ group, contact, officeHours }: ContactCardProps) {
  return (
    <Card variant="outlined" component="section" aria-labelledby={group.id} sx={{ mt: { xs: 6, md: 8 }, bgcolor: 'action.hover' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography id={group.id} variant="h4" component="h2" sx={{ fontWeight: 800, fontSize: { xs: '1.6rem', sm: '2rem' }, scrollMarginTop: 96 }}>
          {group.heading}
        </Typography>
        <Box sx={{ maxWidth: '70ch' }}>
          <ContentBlocks blocks={group.blocks} />
        </Box>
        <Box component="dl" sx={{ m: 0, mt: 3, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' } }}>
          <ContactItem icon={<EmailRounded />} term="Email">
            <Link href={`mailto:${contact.email}`} sx={{ overflowWrap: 'anywhere' }}>
              {contact.email}
            </Link>
          </ContactItem>
          <ContactItem icon={<ChatRounded />} term="Slack channel">
            {contact.slack}
          </ContactItem>
          <ContactItem icon={<ScheduleRounded />} term="Office hours">
            {officeHours}
          </ContactItem>
        </Box>
      </CardContent>
    </Card>
  );
}

function ContactItem({ icon, term, children }: { icon: ReactNode; term: string; children: ReactNode }) {
  return (
    <Box sx={{ p: 2, borderRadius: '10px', bgcolor: 'background.paper', border: 1, borderColor: 'divider' }}>
      <Typography component="dt" variant="body2" color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Box component="span" aria-hidden sx={{ color: 'primary.main', display: 'inline-flex' }}>
          {icon}
        </Box>
        {term}
      </Typography>
      <Typography component="dd" sx={{ m: 0, mt: 0.75, fontWeight: 600 }}>
        {children}
      </Typography>
    </Box>
  );
}
