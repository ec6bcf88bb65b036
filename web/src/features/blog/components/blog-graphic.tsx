// A post's picture, drawn from its front matter (`graphic`): a two-colour gradient, a line
// motif in the accent colour and the post's icon. Decorative: the title says what it is.
import type { BlogFrontMatter } from '@purser/docs-content/browser';
import { Box } from '@mui/material';
import { graphicIcon } from '../utils/graphic-icons';
import { MotifLines } from './motif-lines';

interface BlogGraphicProps {
  graphic: BlogFrontMatter['graphic'];
  height: number | Record<string, number>;
  /** Icon size in pixels. */
  iconSize?: number;
}

export function BlogGraphic({ graphic, height, iconSize = 40 }: BlogGraphicProps) {
  const Icon = graphicIcon(graphic.icon);
  const [from, to] = graphic.gradient;
  return (
    <Box
      aria-hidden
      sx={{
        position: 'relative',
        height,
        overflow: 'hidden',
        background: `linear-gradient(135deg, ${from} 0%, ${to} 100%)`,
        display: 'grid',
        placeItems: 'center',
      }}
    >
      <MotifLines motif={graphic.motif} color={graphic.accent} />
      <Box
        sx={{
          position: 'relative',
          display: 'grid',
          placeItems: 'center',
          width: iconSize * 1.9,
          height: iconSize * 1.9,
          borderRadius: '50%',
          color: '#fff',
          bgcolor: 'rgba(255, 255, 255, 0.16)',
          border: '1px solid rgba(255, 255, 255, 0.35)',
          boxShadow: `0 0 0 6px rgba(255, 255, 255, 0.06), 0 8px 24px rgba(15, 23, 42, 0.25)`,
          backdropFilter: 'blur(2px)',
        }}
      >
        <Icon sx={{ fontSize: iconSize }} />
      </Box>
    </Box>
  );
}
