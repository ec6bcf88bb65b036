// Frame shared by the legal pages: title, a Back to home link, and summary points.
// The full texts are rendered from the docs-content workspace in the content work.
import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';

interface LegalPageProps {
  title: string;
  summary: string;
  points: string[];
}

export function LegalPage({ title, summary, points }: LegalPageProps) {
  return (
    <PublicPageLayout title={title} actions={<BackToHomeLink />}>
      <Typography>{summary}</Typography>
      <List>
        {points.map((point) => (
          <ListItem key={point} disableGutters>
            <ListItemText primary={point} />
          </ListItem>
        ))}
      </List>
    </PublicPageLayout>
  );
}
