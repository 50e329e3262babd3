/** A titled block of label/value pairs (the detail screens' customer, pre-registration and registration blocks). */
import type { ReactNode } from "react";
import { DetailList, type DetailRow } from "~/components/DetailList";

export function Details({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <section className="detail-block" aria-label={title}>
      <h2>{title}</h2>
      <DetailList
        rows={rows.map(([label, value]): DetailRow => [
          label,
          value === null || value === undefined || value === "" ? "—" : value,
        ])}
      />
    </section>
  );
}
