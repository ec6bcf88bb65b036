// The body of a blog post or of the responsible-AI page: the restricted blocks of docs-content
// (headings, paragraphs, bulleted and numbered lists), shown as plain text. Headings get
// GitHub-style ids, the ones the content's `/page#heading` links are checked against.
import { headingSlugs, type Block } from '@purser/docs-content/browser';
import { Box, Typography } from '@mui/material';

/** Anchor targets stop this far below the top of the window, clear of the sticky top bar. */
const ANCHOR_OFFSET_PX = 96;

export function ContentBlocks({ blocks }: { blocks: readonly Block[] }) {
  const slugs = headingSlugs(blocks.filter((block) => block.type === 'heading').map((block) => block.text));
  let heading = 0;
  return (
    <Box sx={{ '& > :first-of-type': { mt: 0 } }}>
      {blocks.map((block, index) => {
        if (block.type === 'heading') {
          return (
            <Typography
              key={index}
              id={slugs[heading++]}
              variant="h5"
              component="h2"
              sx={{ fontWeight: 700, mt: 4, mb: 1.5, scrollMarginTop: ANCHOR_OFFSET_PX }}
            >
              {block.text}
            </Typography>
          );
        }
        if (block.type === 'paragraph') {
          return (
            <Typography key={index} sx={{ my: 1.5, lineHeight: 1.75 }}>
              {block.text}
            </Typography>
          );
        }
        return (
          <Box key={index} component={block.ordered ? 'ol' : 'ul'} sx={{ typography: 'body1', pl: 3, my: 1.5, lineHeight: 1.75 }}>
            {block.items.map((item) => (
              <Box key={item} component="li" sx={{ my: 0.75, pl: 0.5 }}>
                {item}
              </Box>
            ))}
          </Box>
        );
      })}
    </Box>
  );
}
