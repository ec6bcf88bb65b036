// An amount with two decimals; when that rounds part of it away (a micro-payment of 0.000125),
// the full amount is a hover title and part of the accessible text, and a dotted underline
// says there is more.
import { Box } from '@mui/material';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';
import { amountDisplay } from '../utils/format';

export function AmountText({ amountExact, currency }: { amountExact: string; currency?: string }) {
  const { text, exact } = amountDisplay(amountExact);
  const suffix = currency ? ` ${currency}` : '';
  if (!exact) return <>{`${text}${suffix}`}</>;
  return (
    <Box component="span" title={`${exact}${suffix}`} sx={{ textDecoration: 'underline dotted', textUnderlineOffset: '3px', cursor: 'help' }}>
      <span aria-hidden>{`${text}${suffix}`}</span>
      <Box component="span" sx={visuallyHidden}>{`${exact}${suffix}`}</Box>
    </Box>
  );
}
