// A few figures as a description list (a label over each value): the certificates' progress, the
// exam days' tiles, the education offices' totals. The look is the caller's (className on the list, itemClassName on each item).
import type { ReactNode } from 'react';
import './figures.css';

/** [label, value, an extra class for this item]. */
export type Figure = readonly [label: string, value: ReactNode, className?: string];

export function Figures({ figures, className, itemClassName, testId }: { figures: readonly Figure[]; className: string; itemClassName?: string; testId?: string }) {
  return (
    <dl className={className} data-testid={testId}>
      {figures.map(([label, value, extra]) => (
        <div key={label} className={[itemClassName, extra].filter(Boolean).join(' ') || undefined}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
