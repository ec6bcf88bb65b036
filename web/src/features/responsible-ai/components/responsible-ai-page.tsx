// Route '/responsible-ai': docs-content/responsible-ai.md. The principles, safety, privacy and
// operations parts as cards, the policy resources (all to the booking page), then the contact:
// email, Slack channel and office hours.
import { parseTextDate } from '@purser/docs-content/browser';
import { Box, Typography } from '@mui/material';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';
import { responsibleAi } from '../data/responsible-ai-content';
import { groupByHeading } from '../utils/group-by-heading';
import { ContactCard } from './contact-card';
import { PolicyResources } from './policy-resources';
import { PrincipleCard } from './principle-card';

const CONTACT_HEADING = 'Contact and office hours';

export function ResponsibleAiPage() {
  const groups = groupByHeading(responsibleAi.content);
  const commitments = groups.filter((group) => group.heading !== CONTACT_HEADING);
  const contact = groups.find((group) => group.heading === CONTACT_HEADING);

  return (
    <PublicPageLayout
      title={responsibleAi.title}
      description={responsibleAi.summary}
      actions={<BackToHomeLink />}
      maxWidth="lg"
      hero={
        <Box component="header" sx={{ mb: { xs: 4, md: 6 }, maxWidth: '70ch' }}>
          <Typography variant="h3" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '2.1rem', sm: '3rem' } }}>
            {responsibleAi.title}
          </Typography>
          <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 1, fontWeight: 400, lineHeight: 1.55 }}>
            {responsibleAi.summary}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            Last updated <time dateTime={parseTextDate(responsibleAi.updated)?.toISOString().slice(0, 10)}>{responsibleAi.updated}</time>
          </Typography>
        </Box>
      }
    >
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
        {commitments.map((group) => (
          <PrincipleCard key={group.id} group={group} />
        ))}
      </Box>
      <PolicyResources resources={responsibleAi.resources} />
      {contact && <ContactCard group={contact} contact={responsibleAi.contact} officeHours={responsibleAi.officeHours} />}
    </PublicPageLayout>
  );
}
