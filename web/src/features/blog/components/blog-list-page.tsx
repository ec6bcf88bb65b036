// Route '/blog': the articles, newest first, as cards.
import { Grid } from '@mui/material';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';
import { blogPosts } from '../data/blog-posts';
import { BlogHeaderLinks } from './blog-header-links';
import { BlogPostCard } from './blog-post-card';

const SUBTITLE = 'Notes on agentic commerce, payment rails and agent identity.';

export function BlogListPage() {
  return (
    <PublicPageLayout
      title="Blog"
      subtitle={SUBTITLE}
      description={`${SUBTITLE} Articles from the Purser team.`}
      actions={<BlogHeaderLinks />}
      maxWidth="lg"
    >
      <Grid container spacing={3} component="ul" aria-label="Articles" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {blogPosts.map((post) => (
          <Grid key={post.id} size={{ xs: 12, sm: 6, md: 4 }} component="li">
            <BlogPostCard post={post} />
          </Grid>
        ))}
      </Grid>
    </PublicPageLayout>
  );
}
