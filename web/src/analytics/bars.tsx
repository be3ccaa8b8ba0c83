import { useId } from 'react';

export interface Bar {
  label: string;
  value: number;
}

const ROW = 22;
const LABEL = 160;
const WIDTH = 560;

/**
 * A horizontal bar chart in plain SVG, one bar per row, longest first as given. It is an image with
 * a title; the table beside it carries the same figures for a screen reader.
 */
export function BarChart({
  title,
  bars,
  format,
}: {
  title: string;
  bars: Bar[];
  format: (n: number) => string;
}) {
  const id = useId();
  const max = Math.max(0, ...bars.map((b) => b.value));
  const span = WIDTH - LABEL - 90;
  const height = Math.max(1, bars.length) * ROW + 8;
  return (
    <figure className="bars">
      <figcaption id={id}>{title}</figcaption>
      {bars.length === 0 ? (
        <p className="muted">Nothing in this range.</p>
      ) : (
        <svg role="img" aria-labelledby={id} viewBox={`0 0 ${WIDTH} ${height}`} width="100%">
          <title>{title}</title>
          {bars.map((b, i) => {
            const w = max > 0 ? Math.max(1, (b.value / max) * span) : 1;
            const y = i * ROW + 4;
            return (
              <g key={b.label}>
                <text x={LABEL - 8} y={y + 14} textAnchor="end" className="bars-label">
                  {b.label.length > 24 ? `…${b.label.slice(-23)}` : b.label}
                </text>
                <rect x={LABEL} y={y + 2} width={w} height={ROW - 6} rx={3} className="bars-bar" />
                <text x={LABEL + w + 6} y={y + 14} className="bars-value">
                  {format(b.value)}
                </text>
              </g>
            );
          })}
        </svg>
      )}
    </figure>
  );
}
