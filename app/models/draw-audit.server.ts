/**
 * The draw audit (spec 001 §2 Schemes → Draws): every draw with the pools it
 * considered and its rolls, as the screen lists it (GET /api/v1/draws) and as
 * Draws.xls writes it, both read with app/schemas/draw.ts's filters.
 */
import { and, count as countRows, desc, eq, gte, lt, or, type SQL } from "drizzle-orm";
import { db, schema } from "@db/index";
import type { Draw } from "@db/schema";
import { likeContains, runTable, toTableParams, type PagingArgs, type TableResult } from "~/utils/datatable.server";
import { label } from "~/utils/labels";
import type { Column } from "~/utils/spreadsheet.server";
import { displayDateTime, kathmanduBounds } from "~/utils/time";
import type { AllocationType } from "~/utils/prize-constants";
import { parseDrawAudit, type DrawAudit, type DrawOutcome, type PoolAudit, type Roll } from "./prize-draw.server";
import { branchCondition, type Scope } from "./scope.server";

const { draws, branches, preregistrations, registrations } = schema;

export type DrawFilters = {
  /** Kathmandu days (YYYY-MM-DD, To through its whole day) or wall-clock hours ("YYYY-MM-DD HH:mm"), read by app/schemas/draw.ts. */
  from?: string | null;
  to?: string | null;
  pool_type?: AllocationType | null;
  branch_id?: number | null;
  outcome?: DrawOutcome | null;
  thrill?: 2 | 3 | null;
};

export type DrawListRow = Omit<Draw, "pools" | "rolls"> &
  DrawAudit & {
    branch: { id: number; title: string } | null;
    entry: { slug: string; name: string; phone: string } | null;
  };

/** Draws for the audit screen (DataTables paging), newest first by default. Branch users see their branch's draws. */
export function listDraws(scope: Scope, params: PagingArgs, filters: DrawFilters = {}): TableResult<DrawListRow> {
  const preJoin = and(eq(draws.entry_type, "preregistration"), eq(preregistrations.id, draws.entry_id));
  const regJoin = and(eq(draws.entry_type, "registration"), eq(registrations.id, draws.entry_id));
  const bounds = kathmanduBounds(filters.from, filters.to);

  return runTable<DrawListRow>(toTableParams(params), {
    orderable: {
      id: draws.id,
      created_at: draws.created_at,
      date: draws.date,
      amount: draws.amount,
      outcome: draws.outcome,
      pool_type: draws.pool_type,
      thrill: draws.thrill,
      branch: branches.title,
    },
    defaultOrder: { column: "id", dir: "desc" },
    base: [branchCondition(draws.branch_id, scope)],
    filters: [
      bounds.from ? gte(draws.created_at, bounds.from) : undefined,
      bounds.to ? lt(draws.created_at, bounds.to) : undefined,
      filters.pool_type ? eq(draws.pool_type, filters.pool_type) : undefined,
      filters.branch_id ? eq(draws.branch_id, filters.branch_id) : undefined,
      filters.outcome ? eq(draws.outcome, filters.outcome) : undefined,
      filters.thrill ? eq(draws.thrill, filters.thrill) : undefined,
    ],
    search: (term): SQL | undefined =>
      or(
        likeContains(preregistrations.name, term),
        likeContains(preregistrations.phone, term),
        likeContains(registrations.name, term),
        likeContains(registrations.phone, term),
      ),
    count: (where) =>
      db
        .select({ n: countRows() })
        .from(draws)
        .leftJoin(preregistrations, preJoin)
        .leftJoin(registrations, regJoin)
        .where(where)
        .get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select({
          draw: draws,
          branch_title: branches.title,
          pre_slug: preregistrations.slug,
          pre_name: preregistrations.name,
          pre_phone: preregistrations.phone,
          reg_slug: registrations.slug,
          reg_name: registrations.name,
          reg_phone: registrations.phone,
        })
        .from(draws)
        .leftJoin(preregistrations, preJoin)
        .leftJoin(registrations, regJoin)
        .leftJoin(branches, eq(branches.id, draws.branch_id))
        .where(where)
        .orderBy(...orderBy, desc(draws.id))
        .limit(limit)
        .offset(offset)
        .all()
        .map((r) => {
          const { pools, rolls, ...rest } = r.draw;
          const slug = r.pre_slug ?? r.reg_slug;
          return {
            ...rest,
            ...parseDrawAudit({ pools, rolls }),
            branch: rest.branch_id !== null ? { id: rest.branch_id, title: r.branch_title ?? "" } : null,
            entry:
              slug !== null
                ? { slug, name: r.pre_name ?? r.reg_name ?? "", phone: r.pre_phone ?? r.reg_phone ?? "" }
                : null,
          };
        }),
  });
}

// ---------------------------------------------------------------- Draws.xls

const EXPORT_PAGE = 2000;

/** Every draw of the filters, oldest first, read in pages so a long campaign streams through. */
export function* exportDraws(scope: Scope, filters: DrawFilters, search = ""): Generator<DrawListRow> {
  for (let start = 0; ; start += EXPORT_PAGE) {
    // Oldest first: draws made while the file is written land after the last page read, never twice.
    const page = listDraws(
      scope,
      { start, length: EXPORT_PAGE, search, order: [{ column: "id", dir: "asc" }] },
      filters,
    );
    yield* page.data;
    if (page.data.length < EXPORT_PAGE) return;
  }
}

const poolText = (p: PoolAudit) =>
  `#${p.id} Rs ${p.amount} x${p.count} (paid ${p.paid}, remaining ${p.remaining}) at ${p.probability} in 100`;

const rollText = (r: Roll) =>
  r.stage === "pool"
    ? `pool #${r.allocation_id} (Rs ${r.amount}, ${r.probability} in 100): ${r.value.toFixed(6)} → ${r.win ? "win" : "no win"}`
    : `${r.table}-thrill base table: ${r.value.toFixed(6)} → Rs ${r.amount}`;

export const DRAW_COLUMNS: Column<DrawListRow>[] = [
  { header: "ID", value: (d) => d.id },
  { header: "Time", value: (d) => displayDateTime(d.created_at) },
  { header: "Thrill", value: (d) => (d.thrill === 2 ? "Second" : "Third") },
  { header: "Entry type", value: (d) => label("draw_entry", d.entry_type) },
  { header: "Entry ID", value: (d) => d.entry_id },
  { header: "Name", value: (d) => d.entry?.name ?? "" },
  { header: "Phone", value: (d) => d.entry?.phone ?? "" },
  { header: "Pool type", value: (d) => label("allocation_type", d.pool_type) || (d.pool_type ?? "") },
  { header: "Branch", value: (d) => d.branch?.title ?? "" },
  { header: "Date", value: (d) => d.date },
  { header: "Outcome", value: (d) => label("draw_outcome", d.outcome) || d.outcome },
  { header: "Amount", value: (d) => d.amount },
  { header: "Scheme ID", value: (d) => d.allocation_id ?? "" },
  { header: "Pools considered", value: (d) => d.pools.map(poolText).join("; ") },
  { header: "Rolls", value: (d) => d.rolls.map(rollText).join("; ") },
];
