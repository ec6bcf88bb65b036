// Route '/blog/:postId': one article. Unknown ids go back to the list (replacing the entry).
import type { BlogPost } from '@purser/docs-content/browser';
import { Box, Grid, Typography } from '@mui/material';
import { Navigate, useParams } from 'react-router';
import { ContentBlocks } from '../../../shared/content/content-blocks';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';
import { findBlogPost } from '../data/blog-posts';
import { BlogGraphic } from './blog-graphic';
import { BlogHeaderLinks } from './blog-header-links';
import { BlogPostSidebar } from './blog-post-sidebar';
import { PostDate, PostTags } from './post-meta';

export function BlogPostPage() {
  const { postId } = useParams();
  const post = findBlogPost(postId);

  if (!post) return <Navigate to="/blog" replace />;

  return (
    <PublicPageLayout title={post.title} description={post.intro} type="article" hero={<ArticleHero post={post} />} actions={<BlogHeaderLinks />} maxWidth="lg">
      <Grid container spacing={{ xs: 4, md: 6 }}>
        <Grid size={{ xs: 12, md: 8 }} component="article" aria-label={post.title}>
          <Box sx={{ maxWidth: '72ch' }}>
            <ContentBlocks blocks={post.content} />
          </Box>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }} component="aside" aria-label="Article details">
          <BlogPostSidebar post={post} />
        </Grid>
      </Grid>
    </PublicPageLayout>
  );
}

function ArticleHero({ post }: { post: BlogPost }) {
  return (
    <Box component="header" sx={{ mb: { xs: 4, md: 6 } }}>
      <Box sx={{ borderRadius: 3, overflow: 'hidden', mb: { xs: 3, md: 4 } }}>
        <BlogGraphic graphic={post.graphic} height={{ xs: 160, md: 240 }} iconSize={56} />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 500, mb: 1 }}>
        <PostDate date={post.date} />
      </Typography>
      <Typography variant="h3" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '1.9rem', sm: '2.4rem', md: '2.9rem' }, lineHeight: 1.15, maxWidth: '28ch' }}>
        {post.title}
      </Typography>
      <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 2, fontWeight: 400, lineHeight: 1.55, maxWidth: '70ch' }}>
        {post.intro}
      </Typography>
      <Box sx={{ mt: 2 }}>
        <PostTags tags={post.tags} label="Tags" />
      </Box>
    </Box>
  );
}
