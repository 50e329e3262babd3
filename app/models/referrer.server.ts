/**
 * Referrers (spec 001 §2.12; docs/decisions/0016-broadcasts-and-referrers.md):
 * registered customers who brought others, their share links, and the
 * referrer report.
 *
 * - A customer's share link is /r/{share_code} (80 random bits per
 *   registration, set on insert by a trigger). A test ride booked, or a
 *   pre-registration made, by a visitor who came through it records that
 *   registration as referrer (test_rides.referrer_id,
 *   preregistrations.referrer_id) and the link's utm_source ("referral"
 *   unless the link said otherwise); a purchase of such a pre-registration is
 *   referred by them too unless the counter names another referrer. Nobody
 *   refers themselves: the same phone records no referrer.
 * - The report lists live registrations that referred someone in the range
 *   (Kathmandu days, on when the referred record was made): title (their
 *   name), referrals_count (live registrations naming them as referrer),
 *   test_rides_count (test rides they referred, not deleted) and
 *   preregistrations_count (pre-registrations made through their link).
 *   A branch user sees the referrers registered at their branch, with
 *   everything they referred.
 */
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import type { ReferrerFilters } from "~/schemas/referrer";
import { likeContains, type TableParams, type TableResult } from "~/utils/datatable.server";
import { normalizePhone } from "~/utils/phone";
import { SHARE_CODE, shareLink, type Referral } from "~/utils/share-link.server";
import { kathmanduBounds } from "~/utils/time";
import { branchCondition, type Scope, isHeadOffice } from "./scope.server";

const { registrations: R, branches } = schema;

// ---------------------------------------------------------------- share links

/** The live registration a share code belongs to (id and phone), or null (any code that is not one). */
export function findSharer(code: string, exec: Executor = db): { id: number; phone: string } | null {
  if (!SHARE_CODE.test(code)) return null;
  return (
    exec
      .select({ id: R.id, phone: R.phone })
      .from(R)
      .where(and(eq(R.share_code, code), isNull(R.deleted_at)))
      .get() ?? null
  );
}

/**
 * What a record made through a share link stores: its referrer and
 * utm_source. Null without a referral, for a code that names nobody (or a
 * deleted registration), and when the visitor is the referrer themselves.
 */
export function referralFor(
  exec: Executor,
  referral: Referral | null | undefined,
  phone: string,
): { referrer_id: number; utm_source: string } | null {
  if (!referral) return null;
  const sharer = findSharer(referral.code, exec);
  if (!sharer || sharer.phone === (normalizePhone(phone) ?? phone)) return null;
  return { referrer_id: sharer.id, utm_source: referral.source };
}

/**
 * The referrer a purchase takes from its pre-registration (made through a
 * share link) when the counter names none: the referring registration if it
 * is live and not the buyer themselves, with its name when the scope reaches it.
 */
export function inheritedReferrer(
  exec: Executor,
  scope: Scope,
  referrerId: number | null,
  ownPhone: string,
): { id: number; name: string | null } | null {
  if (!referrerId) return null;
  const row = exec
    .select({ id: R.id, name: R.name, phone: R.phone, branch_id: R.branch_id })
    .from(R)
    .where(and(eq(R.id, referrerId), isNull(R.deleted_at)))
    .get();
  if (!row || row.phone === ownPhone) return null;
  const reached = isHeadOffice(scope) || row.branch_id === scope.branchId;
  return { id: row.id, name: reached ? row.name : null };
}

/** A registration's share link (for its detail page and its purchase SMS); null for a missing registration. */
export function shareLinkOf(registrationId: number, exec: Executor = db): string | null {
  const row = exec.select({ code: R.share_code }).from(R).where(eq(R.id, registrationId)).get();
  return row?.code ? shareLink(row.code) : null;
}

// ---------------------------------------------------------------- the report

export type ReferrerRow = {
  id: number;
  slug: string;
  /** The referrer's name. */
  title: string;
  branch: { title: string };
  referrals_count: number;
  test_rides_count: number;
  preregistrations_count: number;
};

/** Everything referred in the range, one row per referring registration with its three counts. */
function countsInRange(filters: ReferrerFilters): SQL {
  const bounds = kathmanduBounds(filters.from, filters.to);
  const range = (column: SQL) =>
    sql.join(
      [
        bounds.from ? sql`and ${column} >= ${bounds.from}` : sql``,
        bounds.to ? sql`and ${column} < ${bounds.to}` : sql``,
      ],
      sql` `,
    );
  return sql`(
    select rid, sum(reg) as referrals_count, sum(ride) as test_rides_count, sum(pre) as preregistrations_count
    from (
      select r2.registration_id as rid, 1 as reg, 0 as ride, 0 as pre from registrations r2
        where r2.registration_id is not null and r2.deleted_at is null ${range(sql`r2.created_at`)}
      union all
      select t.referrer_id, 0, 1, 0 from test_rides t
        where t.referrer_id is not null and t.deleted_at is null ${range(sql`t.created_at`)}
      union all
      select p.referrer_id, 0, 0, 1 from preregistrations p
        where p.referrer_id is not null and p.deleted_at is null ${range(sql`p.created_at`)}
    ) group by rid
  ) as counts`;
}

/** The referrers in reach: live registrations of the scope, by name. */
function reach(scope: Scope, filters: ReferrerFilters): SQL | undefined {
  return and(
    isNull(R.deleted_at),
    branchCondition(R.branch_id, scope),
    filters.search ? likeContains(R.name, filters.search) : undefined,
  );
}

const ORDERS: Record<string, SQL> = {
  title: sql`${R.name}`,
  referrals_count: sql`counts.referrals_count`,
  test_rides_count: sql`counts.test_rides_count`,
  preregistrations_count: sql`counts.preregistrations_count`,
};

type Raw = Omit<ReferrerRow, "branch"> & { branch_title: string | null };

function rowsOf(scope: Scope, filters: ReferrerFilters, tail: SQL): ReferrerRow[] {
  const raw = db.all<Raw>(sql`
    select ${R.id} as id, ${R.slug} as slug, ${R.name} as title, ${branches.title} as branch_title,
      counts.referrals_count as referrals_count, counts.test_rides_count as test_rides_count,
      counts.preregistrations_count as preregistrations_count
    from ${countsInRange(filters)}
    join ${R} on ${R.id} = counts.rid
    left join ${branches} on ${branches.id} = ${R.branch_id}
    where ${reach(scope, filters)} ${tail}`);
  return raw.map(({ branch_title, ...r }) => ({ ...r, branch: { title: branch_title ?? "" } }));
}

/**
 * The referrer report, paged (page and GET /api/v1/referrer): most referrals
 * first by default; orderable by title, referrals_count, test_rides_count,
 * preregistrations_count. `recordsTotal` counts the referrers of the range in
 * reach without the name search.
 */
export function referrerReport(
  scope: Scope,
  params: TableParams,
  filters: ReferrerFilters = {},
): TableResult<ReferrerRow> {
  const total = (f: ReferrerFilters) =>
    db.get<{ n: number }>(sql`
      select count(*) as n from ${countsInRange(f)} join ${R} on ${R.id} = counts.rid where ${reach(scope, f)}`)?.n ??
    0;
  const order = params.order
    .map((o) => (ORDERS[o.column] ? sql`${ORDERS[o.column]} ${sql.raw(o.dir === "asc" ? "asc" : "desc")}` : null))
    .filter((o): o is SQL => o !== null);
  const orderBy = order.length
    ? sql.join([...order, sql`${R.id} desc`], sql`, `)
    : sql`counts.referrals_count desc, counts.test_rides_count desc, counts.preregistrations_count desc, ${R.id} desc`;
  const recordsTotal = total({ from: filters.from, to: filters.to });
  const recordsFiltered = filters.search ? total(filters) : recordsTotal;
  return {
    draw: params.draw,
    data: rowsOf(scope, filters, sql`order by ${orderBy} limit ${params.length} offset ${params.start}`),
    recordsTotal,
    recordsFiltered,
    input: params.input,
  };
}

/** Every referrer of the report in reach, read in pages in registration order (Referrers.xls). */
export function* exportReferrers(scope: Scope, filters: ReferrerFilters): Generator<ReferrerRow> {
  const pageSize = 5000;
  for (let lastId = 0; ;) {
    const page = rowsOf(scope, filters, sql`and ${R.id} > ${lastId} order by ${R.id} limit ${pageSize}`);
    if (!page.length) return;
    yield* page;
    lastId = page[page.length - 1].id;
    if (page.length < pageSize) return;
  }
}

export const REFERRER_COLUMNS = [
  { header: "Title", value: (r: ReferrerRow) => r.title },
  { header: "Branch", value: (r: ReferrerRow) => r.branch.title },
  { header: "Referrals", value: (r: ReferrerRow) => r.referrals_count },
  { header: "Test Rides", value: (r: ReferrerRow) => r.test_rides_count },
  { header: "Pre-Registrations", value: (r: ReferrerRow) => r.preregistrations_count },
];
