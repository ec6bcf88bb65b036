// An agent's spend per UTC day as bars, the part paid from payment sessions stacked at the
// bottom of each in its own colour, with its daily limit drawn as a dashed line. Plain SVG
// in the theme's colours, drawn at its real width (text stays 12 px on a phone). The drawing
// is one image with a name and a description for screen readers, and the figures behind it
// follow in a table only they read.
import { Box, Stack, Typography, useTheme } from '@mui/material';
import { useId, type ReactNode } from 'react';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';
import { useElementWidth } from '../hooks/use-element-width';
import { formatDay, formatDollars } from '../utils/money';
import { dayLabels, formatTick, valueScale, type SpendDay } from '../utils/spend-chart';

const MARGIN = { top: 14, right: 8, bottom: 26, left: 52 };
const FONT_SIZE = 12;
/** 'Nov 26' at 12 px is under 40 px wide; labels keep at least this far apart. */
const LABEL_GAP = 60;
const LABEL_HALF_WIDTH = 20;

export interface SpendChartProps {
  days: readonly SpendDay[];
  dailyLimit: number;
  /** The image's accessible name. */
  title: string;
  /** What the image shows, in a sentence (its accessible description). */
  description: string;
}

export function SpendChart({ days, dailyLimit, title, description }: SpendChartProps) {
  const theme = useTheme();
  const id = useId();
  const [ref, width] = useElementWidth<HTMLDivElement>(640);
  const height = width < 480 ? 200 : 240;
  const plotWidth = Math.max(1, width - MARGIN.left - MARGIN.right);
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  const scale = valueScale(days, dailyLimit);
  const y = (value: number) => MARGIN.top + plotHeight - (value / scale.max) * plotHeight;
  const slot = plotWidth / Math.max(days.length, 1);
  const barWidth = Math.max(2, Math.min(28, slot * 0.7));
  const labels = new Map(dayLabels(days.length, MARGIN.left, width - MARGIN.right, LABEL_GAP, LABEL_HALF_WIDTH).map((label) => [label.index, label.x]));
  const limitY = y(dailyLimit);
  const currentYear = new Date().getUTCFullYear();
  const colours = {
    axis: theme.palette.text.secondary,
    grid: theme.palette.divider,
    bar: theme.palette.primary.main,
    over: theme.palette.error.main,
    limit: theme.palette.warning.main,
    session: theme.palette.secondary.main,
  };
  const sessionSpend = days.some((day) => (day.sessionSpent ?? 0) > 0);

  return (
    <Box>
      <Box ref={ref} sx={{ width: '100%' }}>
        <svg width={width} height={height} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`} style={{ display: 'block' }}>
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {scale.ticks.map((tick) => (
            <g key={tick}>
              <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke={colours.grid} strokeWidth={1} />
              <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={FONT_SIZE} fill={colours.axis}>
                {formatTick(tick)}
              </text>
            </g>
          ))}
          {days.map((day, index) => {
            const top = y(day.spent);
            const x = MARGIN.left + index * slot + (slot - barWidth) / 2;
            return (
              <g key={day.date}>
                {day.spent > 0 ? (
                  <rect x={x} y={top} width={barWidth} height={Math.max(1, MARGIN.top + plotHeight - top)} rx={Math.min(3, barWidth / 3)} fill={day.spent > dailyLimit ? colours.over : colours.bar}>
                    <title>{`${formatDay(day.date, currentYear)}: ${formatDollars(day.spent)}`}</title>
                  </rect>
                ) : null}
                {(day.sessionSpent ?? 0) > 0 ? (
                  <rect
                    x={x}
                    y={y(day.sessionSpent ?? 0)}
                    width={barWidth}
                    height={Math.max(1, MARGIN.top + plotHeight - y(day.sessionSpent ?? 0))}
                    rx={Math.min(3, barWidth / 3)}
                    fill={colours.session}
                    data-testid="session-spend-bar"
                  >
                    <title>{`${formatDay(day.date, currentYear)}: ${formatDollars(day.sessionSpent ?? 0)} from payment sessions`}</title>
                  </rect>
                ) : null}
                {labels.has(index) ? (
                  <text x={labels.get(index)} y={height - 8} textAnchor="middle" fontSize={FONT_SIZE} fill={colours.axis}>
                    {formatDay(day.date)}
                  </text>
                ) : null}
              </g>
            );
          })}
          <line x1={MARGIN.left} x2={width - MARGIN.right} y1={limitY} y2={limitY} stroke={colours.limit} strokeWidth={2} strokeDasharray="6 4" />
        </svg>
      </Box>
      <Stack direction="row" spacing={2.5} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }} aria-hidden>
        <LegendItem swatch={<Box sx={{ width: 12, height: 12, borderRadius: 0.5, bgcolor: colours.bar }} />} label="Spent per UTC day" />
        {sessionSpend ? <LegendItem swatch={<Box sx={{ width: 12, height: 12, borderRadius: 0.5, bgcolor: colours.session }} />} label="Of it from payment sessions" /> : null}
        <LegendItem swatch={<Box sx={{ width: 18, borderTop: `2px dashed ${colours.limit}` }} />} label={`Daily limit ${formatDollars(dailyLimit)}`} />
        {days.some((day) => day.spent > dailyLimit) ? (
          <LegendItem swatch={<Box sx={{ width: 12, height: 12, borderRadius: 0.5, bgcolor: colours.over }} />} label="Above today's limit" />
        ) : null}
      </Stack>
      <Box sx={visuallyHidden}>
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Spent</th>
              {sessionSpend ? <th scope="col">From payment sessions</th> : null}
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{formatDay(day.date, currentYear)}</th>
                <td>{formatDollars(day.spent)}</td>
                {sessionSpend ? <td>{formatDollars(day.sessionSpent ?? 0)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </Box>
    </Box>
  );
}

function LegendItem({ swatch, label }: { swatch: ReactNode; label: string }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
      {swatch}
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
    </Stack>
  );
}
