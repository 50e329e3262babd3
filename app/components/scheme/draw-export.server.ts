/** Draws.xls: every draw of the filters, oldest first, read in pages so a long campaign streams through. */
import { label } from "~/utils/labels";
import { listDraws, type DrawFilters, type DrawListRow } from "~/models/prize-draw.server";
import type { Scope } from "~/models/scope.server";
import type { Column } from "~/utils/spreadsheet.server";
import { displayDateTime } from "~/utils/time";
import { poolText, rollText } from "./draw-text";
import { OUTCOME_LABELS, typeLabel } from "./format";

const PAGE = 2000;

export function* drawsForExport(filters: DrawFilters, scope: Scope, search = ""): Generator<DrawListRow> {
  for (let start = 0; ; start += PAGE) {
    // Oldest first: draws made while the file is written land after the last page read, never twice.
    const page = listDraws(scope, { start, length: PAGE, search, order: [{ column: "id", dir: "asc" }] }, filters);
    yield* page.data;
    if (page.data.length < PAGE) return;
  }
}

export const DRAW_COLUMNS: Column<DrawListRow>[] = [
  { header: "ID", value: (d) => d.id },
  { header: "Time", value: (d) => displayDateTime(d.created_at) },
  { header: "Thrill", value: (d) => (d.thrill === 2 ? "Second" : "Third") },
  { header: "Entry type", value: (d) => label("draw_entry", d.entry_type) },
  { header: "Entry ID", value: (d) => d.entry_id },
  { header: "Name", value: (d) => d.entry?.name ?? "" },
  { header: "Phone", value: (d) => d.entry?.phone ?? "" },
  { header: "Pool type", value: (d) => typeLabel(d.pool_type) },
  { header: "Branch", value: (d) => d.branch?.title ?? "" },
  { header: "Date", value: (d) => d.date },
  { header: "Outcome", value: (d) => OUTCOME_LABELS[d.outcome] ?? d.outcome },
  { header: "Amount", value: (d) => d.amount },
  { header: "Scheme ID", value: (d) => d.allocation_id ?? "" },
  { header: "Pools considered", value: (d) => d.pools.map(poolText).join("; ") },
  { header: "Rolls", value: (d) => d.rolls.map(rollText).join("; ") },
];
