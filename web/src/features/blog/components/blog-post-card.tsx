// One article on /blog: graphic, date, title, intro, tags, optional source and 'Read article'.
import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import type { BlogPost } from '@purser/docs-content/browser';
import { Button, Card, CardActions, CardContent, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BlogGraphic } from './blog-graphic';
import { PostDate, PostTags } from './post-meta';

export function BlogPostCard({ post }: { post: BlogPost }) {
  const href = `/blog/${post.id}`;
  const titleId = `post-title-${post.id}`;
  return (
    <Card
      variant="outlined"
      component="article"
      aria-labelledby={titleId}
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        transition: 'box-shadow 150ms, transform 150ms',
        '&:hover': { boxShadow: 4, transform: 'translateY(-2px)' },
        '@media (prefers-reduced-motion: reduce)': { transition: 'none', '&:hover': { transform: 'none' } },
      }}
    >
      <BlogGraphic graphic={post.graphic} height={148} iconSize={36} />
      <CardContent sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column', gap: 1.25 }}>
        <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
          <PostDate date={post.date} />
        </Typography>
        <Typography id={titleId} variant="h6" component="h2" sx={{ fontWeight: 700, lineHeight: 1.3 }}>
          <Link component={RouterLink} to={href} color="inherit" underline="hover">
            {post.title}
          </Link>
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ lineHeight: 1.6, flexGrow: 1 }}>
          {post.intro}
        </Typography>
        <PostTags tags={post.tags} label="Topics" />
        {post.source && (
          <Link
            href={post.source.url}
            target="_blank"
            rel="noopener noreferrer"
            variant="body2"
            color="text.secondary"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, alignSelf: 'flex-start' }}
          >
            <span>Source: {post.source.label}</span>
            <OpenInNewRounded sx={{ fontSize: 14, flexShrink: 0 }} aria-hidden />
          </Link>
        )}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, pt: 0 }}>
        <Button component={RouterLink} to={href} endIcon={<ArrowForwardRounded />} aria-describedby={titleId} sx={{ ml: -1 }}>
          Read article
        </Button>
      </CardActions>
    </Card>
  );
}
