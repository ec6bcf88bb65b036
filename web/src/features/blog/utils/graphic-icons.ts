// The Material icons a post's front matter may name as its graphic (`graphic.icon`). Listed
// one by one so the bundle carries these few icons, not the whole icon set; a test checks
// that every post names one of them.
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWallet';
import Article from '@mui/icons-material/Article';
import Bolt from '@mui/icons-material/Bolt';
import Fingerprint from '@mui/icons-material/Fingerprint';
import Hub from '@mui/icons-material/Hub';
import Payments from '@mui/icons-material/Payments';
import Security from '@mui/icons-material/Security';
import ShoppingCart from '@mui/icons-material/ShoppingCart';
import Storefront from '@mui/icons-material/Storefront';
import Timeline from '@mui/icons-material/Timeline';
import VerifiedUser from '@mui/icons-material/VerifiedUser';
import type { SvgIcon } from '@mui/material';

type SvgIconComponent = typeof SvgIcon;

export const GRAPHIC_ICONS: Readonly<Record<string, SvgIconComponent>> = {
  AccountBalanceWallet,
  Bolt,
  Fingerprint,
  Hub,
  Payments,
  Security,
  ShoppingCart,
  Storefront,
  Timeline,
  VerifiedUser,
};

/** The icon a post names, or a plain article icon for a name not listed above. */
export function graphicIcon(name: string): SvgIconComponent {
  return GRAPHIC_ICONS[name] ?? Article;
}
