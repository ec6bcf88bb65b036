// The article page's side column: Published, Topics and Source, then 'Continue exploring'.
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import type { BlogPost } from '@purser/docs-content/browser';
import { Box, Button, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PostDate, PostTags } from './post-meta';

export function BlogPostSidebar({ post }: { post: BlogPost }) {
  return (
    <Stack spacing={2} sx={{ position: { md: 'sticky' }, top: { md: 96 } }}>
      <Card variant="outlined" component="section" aria-label="About this article">
        <CardContent component="dl" sx={{ m: 0, display: 'grid', gap: 2 }}>
          <Detail term="Published">
            <PostDate date={post.date} />
          </Detail>
          <Detail term="Topics">
            <PostTags tags={post.tags} label="Article topics" />
          </Detail>
          <Detail term="Source">
            {post.source ? (
              <Link href={post.source.url} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                <span>{post.source.label}</span>
                <OpenInNewRounded sx={{ fontSize: 16 }} aria-hidden />
              </Link>
            ) : (
              'Original article by the Purser team'
            )}
          </Detail>
        </CardContent>
      </Card>
      <Card variant="outlined" component="section" aria-labelledby="continue-exploring" sx={{ bgcolor: 'action.hover' }}>
        <CardContent>
          <Typography id="continue-exploring" variant="h6" component="h2" sx={{ fontWeight: 700 }} gutterBottom>
            Continue exploring
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            See how agents pay with Purser, or ask for sandbox credentials to try it yourself.
          </Typography>
          <Stack spacing={1}>
            <Button component={RouterLink} to="/docs" variant="outlined" fullWidth>
              Read the docs
            </Button>
            <Button component={RouterLink} to="/#start-building" variant="contained" fullWidth>
              Request sandbox access
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <Typography component="dt" variant="overline" color="text.secondary" sx={{ display: 'block', lineHeight: 1.8 }}>
        {term}
      </Typography>
      <Box component="dd" sx={{ m: 0, typography: 'body2' }}>
        {children}
      </Box>
    </div>
  );
}
