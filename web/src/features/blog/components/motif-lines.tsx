// The four background motifs a post graphic can use (docs-content MOTIFS), as simple SVG line
// drawings that stretch over the gradient.
import type { BlogFrontMatter } from '@purser/docs-content/browser';
import type { ReactNode } from 'react';

type Motif = BlogFrontMatter['graphic']['motif'];

const WIDTH = 400;
const HEIGHT = 200;

function orbits(color: string): ReactNode {
  return (
    <g fill="none" stroke={color}>
      {[50, 95, 140, 185].map((radius, index) => (
        <ellipse key={radius} cx={310} cy={100} rx={radius} ry={radius * 0.55} strokeOpacity={0.7 - index * 0.13} strokeWidth={1.5} />
      ))}
      <circle cx={310 - 95} cy={100} r={5} fill={color} stroke="none" />
      <circle cx={310 + 120} cy={65} r={4} fill={color} stroke="none" />
      <circle cx={80} cy={40} r={3} fill={color} stroke="none" fillOpacity={0.6} />
    </g>
  );
}

function grid(color: string): ReactNode {
  const columns = Array.from({ length: WIDTH / 25 + 1 }, (_, index) => index * 25);
  const rows = Array.from({ length: HEIGHT / 25 + 1 }, (_, index) => index * 25);
  const lit = [
    [275, 25],
    [300, 50],
    [325, 100],
    [50, 125],
    [75, 150],
  ];
  return (
    <g stroke={color} strokeOpacity={0.28} strokeWidth={1}>
      {columns.map((x) => (
        <line key={`x${x}`} x1={x} y1={0} x2={x} y2={HEIGHT} />
      ))}
      {rows.map((y) => (
        <line key={`y${y}`} x1={0} y1={y} x2={WIDTH} y2={y} />
      ))}
      {lit.map(([x, y]) => (
        <rect key={`${x},${y}`} x={x} y={y} width={25} height={25} fill={color} fillOpacity={0.35} stroke="none" />
      ))}
    </g>
  );
}

function waves(color: string): ReactNode {
  return (
    <g fill="none" stroke={color} strokeWidth={2}>
      {[60, 95, 130, 165].map((y, index) => (
        <path
          key={y}
          d={`M0 ${y} Q 50 ${y - 28} 100 ${y} T 200 ${y} T 300 ${y} T 400 ${y}`}
          strokeOpacity={0.75 - index * 0.15}
        />
      ))}
    </g>
  );
}

function nodes(color: string): ReactNode {
  const points: [number, number][] = [
    [40, 50],
    [110, 150],
    [190, 40],
    [260, 120],
    [340, 50],
    [370, 165],
  ];
  const links: [number, number][] = [
    [0, 1],
    [0, 2],
    [1, 3],
    [2, 3],
    [2, 4],
    [3, 4],
    [3, 5],
  ];
  return (
    <g stroke={color} fill={color}>
      {links.map(([from, to]) => {
        const [x1, y1] = points[from] ?? [0, 0];
        const [x2, y2] = points[to] ?? [0, 0];
        return <line key={`${from}-${to}`} x1={x1} y1={y1} x2={x2} y2={y2} strokeOpacity={0.45} strokeWidth={1.5} />;
      })}
      {points.map(([x, y]) => (
        <circle key={`${x},${y}`} cx={x} cy={y} r={6} fillOpacity={0.85} stroke="none" />
      ))}
    </g>
  );
}

const DRAWINGS: Record<Motif, (color: string) => ReactNode> = { orbits, grid, waves, nodes };

export function MotifLines({ motif, color }: { motif: Motif; color: string }) {
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="xMidYMid slice"
      style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}
    >
      {DRAWINGS[motif](color)}
    </svg>
  );
}
