// Route '/blog/:postId': one article. Unknown ids go back to the list.
import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';
import { findBlogPost } from '../data/blog-posts';
import { BlogHeaderLinks } from './blog-header-links';

export function BlogPostPage() {
  const { postId } = useParams();
  const post = findBlogPost(postId);

  if (!post) return <Navigate to="/blog" replace />;

  return (
    <PublicPageLayout title={post.title} actions={<BlogHeaderLinks />}>
      <Card variant="outlined" component="aside" aria-label="Continue exploring">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            Continue exploring
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Button component={RouterLink} to="/docs" variant="outlined">
              Read the docs
            </Button>
            <Button component={RouterLink} to="/#start-building" variant="contained">
              Request sandbox access
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </PublicPageLayout>
  );
}
