// The responsible-AI policy resources: each card's button opens the external booking page
// (spec: Request a copy, Schedule a workshop, Request a workshop).
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import { Box, Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import type { ResponsibleAiContent } from '../data/responsible-ai-content';

export function PolicyResources({ resources }: { resources: ResponsibleAiContent['resources'] }) {
  return (
    <Box component="section" aria-labelledby="policy-resources" sx={{ mt: { xs: 6, md: 8 } }}>
      <Typography id="policy-resources" variant="h4" component="h2" sx={{ fontWeight: 800, fontSize: { xs: '1.6rem', sm: '2rem' } }}>
        Policy resources
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3, maxWidth: '65ch' }}>
        Ask for the policy behind this page, or book time with our team to design the controls for your agents.
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' } }}>
        {resources.map((resource) => (
          <li key={resource.title}>
            <Card variant="outlined" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
              <CardContent sx={{ flexGrow: 1 }}>
                <Typography variant="h6" component="h3" sx={{ fontWeight: 700 }}>
                  {resource.title}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1, lineHeight: 1.6 }}>
                  {resource.description}
                </Typography>
              </CardContent>
              <CardActions sx={{ px: 2, pb: 2 }}>
                <Button
                  href={resource.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  variant="contained"
                  endIcon={<OpenInNewRounded aria-hidden />}
                >
                  {resource.action}
                </Button>
              </CardActions>
            </Card>
          </li>
        ))}
      </Box>
    </Box>
  );
}
