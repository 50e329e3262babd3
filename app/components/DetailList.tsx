/** A record's label/value pairs, as every detail screen lists them (more pairs may follow as children). */
import type { ReactNode } from "react";

export type DetailRow = [label: string, value: ReactNode];

export function DetailList({ rows, children }: { rows: DetailRow[]; children?: ReactNode }) {
  return (
    <dl className="details">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      {children}
    </dl>
  );
}
