/**
 * Counter grants as head office reads them (decision 5): which branch was granted which public entry,
 * by whom, when. The grant itself is made by `grantCounterAccess` (preregistration.server.ts); here are
 * the list (its page, GET /api/v1/preregistration/grants, Grants.xls) and an entry's grants for its page.
 * Head office reads every grant and may filter by branch; a branch user reads its own branch's grants.
 */
import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import type { GrantFilters } from "~/schemas/grants";
import { runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { maskPhone } from "~/utils/phone";
import { EXPORT_PAGE_ROWS } from "~/utils/spreadsheet.server";
import { displayDateTime, kathmanduBounds } from "~/utils/time";
import { branchCondition, isHeadOffice, type Scope } from "./scope.server";

const { preregistrationGrants: G, preregistrations: P, branches, users } = schema;
const nearest = alias(branches, "nearest_branch");

export type GrantRow = {
  granted_at: string;
  branch: { id: number; title: string };
  granted_by: { name: string; email: string } | null;
  preregistration: { slug: string; ref: string; name: string; phone: string; nearest_branch: { title: string } | null };
};

const rowId = sql<number>`${G}.rowid`;

function joined() {
  return db
    .select({
      id: rowId,
      granted_at: G.created_at,
      branch_id: G.branch_id,
      branch_title: branches.title,
      user_name: users.name,
      user_email: users.email,
      slug: P.slug,
      ref: P.ref,
      name: P.name,
      phone: P.phone,
      nearest_title: nearest.title,
    })
    .from(G)
    .innerJoin(P, eq(P.id, G.preregistration_id))
    .innerJoin(branches, eq(branches.id, G.branch_id))
    .leftJoin(users, eq(users.id, G.granted_by))
    .leftJoin(nearest, eq(nearest.id, P.nearest_branch_id));
}

type Flat = ReturnType<ReturnType<typeof joined>["all"]>[number];

const shape = (r: Flat): GrantRow => ({
  granted_at: r.granted_at,
  branch: { id: r.branch_id, title: r.branch_title },
  granted_by: r.user_email ? { name: r.user_name ?? "", email: r.user_email } : null,
  preregistration: {
    slug: r.slug,
    ref: r.ref ?? "",
    name: r.name,
    phone: r.phone,
    nearest_branch: r.nearest_title ? { title: r.nearest_title } : null,
  },
});

function conditions(scope: Scope, filters: GrantFilters): (SQL | undefined)[] {
  const bounds = kathmanduBounds(filters.from, filters.to);
  return [
    filters.branch && isHeadOffice(scope) ? eq(G.branch_id, filters.branch) : undefined,
    bounds.from ? gte(G.created_at, bounds.from) : undefined,
    bounds.to ? lt(G.created_at, bounds.to) : undefined,
  ];
}

/** The grants in reach, newest first (a page of the list); the search looks in the customer's name and reference, the branch and who granted. */
export function listGrants(scope: Scope, params: TableParams, filters: GrantFilters = {}): TableResult<GrantRow> {
  return runTable(params, {
    orderable: { granted_at: G.created_at },
    defaultOrder: { column: "granted_at", dir: "desc" },
    base: [branchCondition(G.branch_id, scope)],
    filters: conditions(scope, filters),
    search: [P.name, P.ref, branches.title, users.name],
    count: (where) =>
      db
        .select({ n: sql<number>`count(*)` })
        .from(G)
        .innerJoin(P, eq(P.id, G.preregistration_id))
        .innerJoin(branches, eq(branches.id, G.branch_id))
        .leftJoin(users, eq(users.id, G.granted_by))
        .where(where)
        .get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      joined()
        .where(where)
        .orderBy(...orderBy, desc(rowId))
        .limit(limit)
        .offset(offset)
        .all()
        .map(shape),
  });
}

/** Every grant of the list's filters, newest made first, read in pages (Grants.xls). */
export function* exportGrants(scope: Scope, filters: GrantFilters): Generator<GrantRow> {
  const where = and(branchCondition(G.branch_id, scope), ...conditions(scope, filters));
  // Read in pages by the table's own row number (one export's cursor), newest first.
  for (let before = Number.MAX_SAFE_INTEGER; ;) {
    const page = joined()
      .where(and(where, lt(rowId, before)))
      .orderBy(desc(rowId))
      .limit(EXPORT_PAGE_ROWS)
      .all();
    if (!page.length) return;
    yield* page.map(shape);
    before = page[page.length - 1].id;
    if (page.length < EXPORT_PAGE_ROWS) return;
  }
}

/** The columns of the list, on screen and in Grants.xls alike. */
export const GRANT_COLUMNS = [
  { header: "Granted", value: (r: GrantRow) => displayDateTime(r.granted_at) },
  { header: "Branch", value: (r: GrantRow) => r.branch.title },
  { header: "By", value: (r: GrantRow) => (r.granted_by ? `${r.granted_by.name} (${r.granted_by.email})` : "") },
  { header: "Customer", value: (r: GrantRow) => r.preregistration.name },
  { header: "Phone", value: (r: GrantRow) => maskPhone(r.preregistration.phone) },
  { header: "Reference", value: (r: GrantRow) => r.preregistration.ref },
  { header: "Nearest Branch", value: (r: GrantRow) => r.preregistration.nearest_branch?.title ?? "" },
];

/** The branches an entry was granted to, oldest first, with who granted it and when (the entry's page). */
export function grantsOfEntry(entryId: number): { branch: string; granted_at: string; granted_by: string | null }[] {
  return db
    .select({ branch: branches.title, granted_at: G.created_at, name: users.name, email: users.email })
    .from(G)
    .innerJoin(branches, eq(branches.id, G.branch_id))
    .leftJoin(users, eq(users.id, G.granted_by))
    .where(eq(G.preregistration_id, entryId))
    .orderBy(G.created_at)
    .all()
    .map((g) => ({
      branch: g.branch,
      granted_at: g.granted_at,
      granted_by: g.email ? `${g.name ?? ""} (${g.email})` : null,
    }));
}
