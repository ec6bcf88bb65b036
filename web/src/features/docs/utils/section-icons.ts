// The Material icons the docs sections' front matter names (`icon`), listed one by one so the
// bundle carries only these; a test checks every section names one of them.
import AccountTree from '@mui/icons-material/AccountTree';
import Bolt from '@mui/icons-material/Bolt';
import Code from '@mui/icons-material/Code';
import Description from '@mui/icons-material/Description';
import Gavel from '@mui/icons-material/Gavel';
import Hub from '@mui/icons-material/Hub';
import MenuBook from '@mui/icons-material/MenuBook';
import RocketLaunch from '@mui/icons-material/RocketLaunch';
import SpaceDashboard from '@mui/icons-material/SpaceDashboard';
import type { SvgIcon } from '@mui/material';

type SvgIconComponent = typeof SvgIcon;

export const SECTION_ICONS: Readonly<Record<string, SvgIconComponent>> = {
  AccountTree,
  Bolt,
  Code,
  Gavel,
  Hub,
  MenuBook,
  RocketLaunch,
  SpaceDashboard,
};

/** The icon a section names, or a plain page icon for a name not listed above. */
export function sectionIcon(name: string): SvgIconComponent {
  return SECTION_ICONS[name] ?? Description;
}
