// Small pieces of an article shown on its card and on its page: the date and the topic tags.
import { parseTextDate } from '@purser/docs-content/browser';
import { Chip, Stack } from '@mui/material';

/** The article's date as written ('Oct 18, 2025'), machine-readable for assistive tools. */
export function PostDate({ date }: { date: string }) {
  const iso = parseTextDate(date)?.toISOString().slice(0, 10);
  return <time dateTime={iso}>{date}</time>;
}

export function PostTags({ tags, label }: { tags: readonly string[]; label: string }) {
  return (
    <Stack component="ul" aria-label={label} direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 0.75, listStyle: 'none', p: 0, m: 0 }}>
      {tags.map((tag) => (
        <li key={tag}>
          <Chip label={tag} size="small" variant="outlined" />
        </li>
      ))}
    </Stack>
  );
}
