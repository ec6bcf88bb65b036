// Route '/blog': the list of articles.
import { Card, CardActionArea, CardContent, Grid, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';
import { blogPosts } from '../data/blog-posts';
import { BlogHeaderLinks } from './blog-header-links';

export function BlogListPage() {
  return (
    <PublicPageLayout
      title="Blog"
      subtitle="Notes on agentic commerce, payment rails and agent identity."
      actions={<BlogHeaderLinks />}
    >
      <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {blogPosts.map((post) => (
          <Grid key={post.id} size={{ xs: 12, sm: 6 }} component="li">
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardActionArea component={RouterLink} to={`/blog/${post.id}`} sx={{ height: '100%' }}>
                <CardContent>
                  <Typography variant="h6" component="h2">
                    {post.title}
                  </Typography>
                  <Typography variant="body2" color="primary" sx={{ mt: 1 }}>
                    Read article
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </PublicPageLayout>
  );
}
