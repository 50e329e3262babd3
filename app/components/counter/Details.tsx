/** A titled block of label/value pairs (the detail screens' customer, pre-registration and registration blocks). */
import type { ReactNode } from "react";

export function Details({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <section className="detail-block" aria-label={title}>
      <h2>{title}</h2>
      <dl className="details">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value === null || value === undefined || value === "" ? "—" : value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
