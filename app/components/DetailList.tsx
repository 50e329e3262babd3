/** A record's label/value pairs, as every detail screen lists them (more pairs may follow as children). */
import type { ReactNode } from "react";

export type DetailRow = [label: string, value: ReactNode];

/** `named`: each value carries its label as `data-field`, for the pages whose figures a script or a test reads. */
export function DetailList({
  rows,
  className = "details",
  named = false,
  children,
}: {
  rows: DetailRow[];
  className?: string;
  named?: boolean;
  children?: ReactNode;
}) {
  return (
    <dl className={className}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd data-field={named ? label : undefined}>{value}</dd>
        </div>
      ))}
      {children}
    </dl>
  );
}
