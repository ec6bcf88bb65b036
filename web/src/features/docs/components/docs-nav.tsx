// The left navigation of /docs: the sections in three groups. A click scrolls smoothly to the
// section (96 px below the top) and records it in the URL; the reader's current section is
// marked. On small screens the list folds away behind a 'Contents' button.
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import { Box, Button, List, ListItem, ListItemButton, ListSubheader } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { useState, type MouseEvent } from 'react';
import { flushSync } from 'react-dom';
import type { DocSection } from '../data/doc-sections';
import { DOCS_NAV } from '../utils/docs-nav';
import { scrollToElement } from '../utils/scroll-to-element';

interface DocsNavProps {
  sections: readonly DocSection[];
  activeId: string | undefined;
}

export function DocsNav({ sections, activeId }: DocsNavProps) {
  const [open, setOpen] = useState(false);
  const titleOf = (id: string) => sections.find((section) => section.id === id)?.title ?? id;

  const follow = (event: MouseEvent, id: string) => {
    event.preventDefault();
    // Fold the phone list first (flushSync: now, not on the next render), so the distance to
    // the section is measured on the page as it will be, not with the list still open.
    flushSync(() => setOpen(false));
    scrollToElement(id);
  };

  const groupId = (title: string) => `docs-nav-${title.toLowerCase().replace(/\W+/g, '-')}`;

  return (
    <Box component="nav" aria-label="Documentation sections">
      <Button
        onClick={() => setOpen((value) => !value)}
        aria-expanded={open}
        aria-controls="docs-nav-groups"
        variant="outlined"
        fullWidth
        endIcon={<ExpandMoreRounded sx={{ transform: open ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }} />}
        sx={{ display: { md: 'none' }, justifyContent: 'space-between' }}
      >
        Contents
      </Button>
      <Box id="docs-nav-groups" sx={{ display: { xs: open ? 'block' : 'none', md: 'block' }, mt: { xs: 1, md: 0 } }}>
        {DOCS_NAV.map((group) => (
          <List
            key={group.title}
            dense
            disablePadding
            aria-labelledby={groupId(group.title)}
            sx={{ mb: 2 }}
            subheader={
              <ListSubheader
                id={groupId(group.title)}
                disableSticky
                disableGutters
                sx={{ bgcolor: 'transparent', lineHeight: 2.2, fontWeight: 700, fontSize: '0.75rem', letterSpacing: '0.06em', textTransform: 'uppercase', color: 'text.secondary' }}
              >
                {group.title}
              </ListSubheader>
            }
          >
            {group.sections.map((id) => {
              const active = id === activeId;
              return (
                <ListItem key={id} disablePadding>
                <ListItemButton
                  component="a"
                  href={`#${id}`}
                  onClick={(event: MouseEvent) => follow(event, id)}
                  aria-current={active ? 'location' : undefined}
                  sx={(theme) => ({
                    borderRadius: '0 8px 8px 0',
                    borderLeft: 3,
                    borderColor: active ? 'primary.main' : 'transparent',
                    bgcolor: active ? alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.14 : 0.07) : 'transparent',
                    color: active ? 'primary.main' : 'text.primary',
                    fontWeight: active ? 700 : 500,
                    fontSize: '0.95rem',
                    py: 0.75,
                  })}
                >
                  {titleOf(id)}
                </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        ))}
      </Box>
    </Box>
  );
}
