/**
 * The counter grant's own rule (decision 5), met at the helper itself, whoever calls it: a live public
 * entry of another showroom is granted, once, with its audit row and a point of the user's hourly limit;
 * anything else (an entry made at a branch, a deleted or missing one, one the branch reaches already,
 * head office) is refused and leaves no trace: no grant row, no audit row, no point taken. Past the
 * limit nothing is written either.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { grantCounterAccess } from "~/models/preregistration-reach.server";
import type { ScopedActor } from "~/models/scope.server";
import { transact } from "~/models/transaction.server";
import { usage } from "~/utils/rate-limit.server";
import { makeBranch, makePreregistration } from "../fixtures";
import XLSX from "sheetjs-style";
import type { GrantRow } from "~/models/counter-grant.server";
import { loader as entryPage } from "~/routes/admin.preregistration.$slug._index";
import { loader as grantsApi } from "~/routes/api.v1.preregistration.grants";
import { loader as grantsDownload } from "~/routes/api.v1.preregistration.grants.download";
import { call, req, staffWith } from "../route-helpers";

let counter = 0;
let other = 0;
let actor: ScopedActor;

beforeAll(async () => {
  counter = makeBranch().id;
  other = makeBranch().id;
  const staff = await staffWith(["read-registration"], counter);
  actor = { id: staff.user.id, email: staff.user.email, address: null, scope: { branchId: counter } };
});

const grantsOf = (entryId: number) =>
  db
    .select()
    .from(schema.preregistrationGrants)
    .where(eq(schema.preregistrationGrants.preregistration_id, entryId))
    .all();
const auditsOf = (slug: string) =>
  db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, "preregistration.grant"), eq(schema.auditLog.entity_id, slug)))
    .all();
const pointsOf = (who: ScopedActor) => usage("counter-grant", String(who.id)).used;
const grant = (who: ScopedActor, entryId: number) => transact((tx) => grantCounterAccess(tx, who, entryId));

describe("a refused grant leaves no trace", () => {
  const refused: [string, () => { id: number; slug: string }, string][] = [
    [
      "another branch's own entry",
      () => makePreregistration({ branch_id: other, nearest_branch_id: other }),
      "refused",
    ],
    ["the branch's own entry", () => makePreregistration({ branch_id: counter }), "refused"],
    [
      "a deleted public entry",
      () => makePreregistration({ branch_id: null, nearest_branch_id: other, deleted_at: new Date().toISOString() }),
      "refused",
    ],
    [
      "a public entry naming the branch itself",
      () => makePreregistration({ branch_id: null, nearest_branch_id: counter }),
      "reached",
    ],
  ];
  for (const [name, make, reason] of refused) {
    it(`${name}: no grant row, no audit row, no point`, () => {
      const entry = make();
      const before = pointsOf(actor);
      expect(grant(actor, entry.id)).toEqual({ granted: false, reason });
      expect(grantsOf(entry.id)).toEqual([]);
      expect(auditsOf(entry.slug)).toEqual([]);
      expect(pointsOf(actor)).toBe(before);
    });
  }

  it("a missing entry and a head-office caller: nothing written", () => {
    const before = db.select().from(schema.preregistrationGrants).all().length;
    expect(grant(actor, 987_654_321)).toEqual({ granted: false, reason: "refused" });
    const entry = makePreregistration({ branch_id: null, nearest_branch_id: other });
    expect(grant({ ...actor, scope: { branchId: null } }, entry.id)).toEqual({ granted: false, reason: "reached" });
    expect(db.select().from(schema.preregistrationGrants).all().length).toBe(before);
    expect(auditsOf(entry.slug)).toEqual([]);
  });

  it("a public entry of another showroom is granted once: one row, one audit row, one point", () => {
    const entry = makePreregistration({ branch_id: null, nearest_branch_id: other });
    const before = pointsOf(actor);
    expect(grant(actor, entry.id)).toEqual({ granted: true });
    expect(grant(actor, entry.id)).toEqual({ granted: false, reason: "reached" });
    expect(grantsOf(entry.id)).toMatchObject([{ branch_id: counter, granted_by: actor.id }]);
    expect(auditsOf(entry.slug)).toHaveLength(1);
    expect(pointsOf(actor)).toBe(before + 1);
  });
});

describe("grants are few: 20 an hour per user", () => {
  it("the 21st is refused with nothing written, and another user of the branch still may", async () => {
    const staff = await staffWith(["read-registration"], counter);
    const busy: ScopedActor = {
      id: staff.user.id,
      email: staff.user.email,
      address: null,
      scope: { branchId: counter },
    };
    for (let i = 0; i < 20; i++) {
      const entry = makePreregistration({ branch_id: null, nearest_branch_id: other });
      expect(grant(busy, entry.id), `grant ${i + 1}`).toEqual({ granted: true });
    }
    const last = makePreregistration({ branch_id: null, nearest_branch_id: other });
    const refused = grant(busy, last.id);
    expect(refused).toMatchObject({ granted: false, reason: "limited", failure: { code: "rate_limited" } });
    expect(grantsOf(last.id)).toEqual([]);
    expect(auditsOf(last.slug)).toEqual([]);
    expect(grant(actor, last.id)).toEqual({ granted: true });
  });
});

describe("grants are seen", () => {
  it("head office lists every grant (who, which branch, which entry, when), by branch and in Grants.xls; a branch its own", async () => {
    const third = makeBranch({ title: "Grant Seer" }).id;
    const seer = await staffWith(["read-registration"], third);
    const seerActor: ScopedActor = {
      id: seer.user.id,
      email: seer.user.email,
      address: null,
      scope: { branchId: third },
    };
    const entry = makePreregistration({ branch_id: null, nearest_branch_id: other, name: "Seen Customer" });
    expect(grant(seerActor, entry.id)).toEqual({ granted: true });
    const head = await staffWith(["read-registration"], null);

    const listed = await call(
      grantsApi as never,
      req("GET", `/api/v1/preregistration/grants?branch=${third}`, { token: head.token }),
    );
    expect(listed.status).toBe(200);
    const rows = ((await listed.json()) as { data: GrantRow[] }).data;
    expect(rows).toEqual([
      {
        granted_at: expect.any(String),
        branch: { id: third, title: "Grant Seer" },
        granted_by: { name: seer.user.name, email: seer.user.email },
        preregistration: expect.objectContaining({
          slug: entry.slug,
          name: "Seen Customer",
          ref: expect.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/),
        }),
      },
    ]);
    const file = await call(
      grantsDownload as never,
      req("GET", `/api/v1/preregistration/grants/download?branch=${third}`, { token: head.token }),
    );
    const book = XLSX.read(new Uint8Array(await file.arrayBuffer()), { type: "array" });
    const csv = XLSX.utils.sheet_to_csv(book.Sheets[book.SheetNames[0]]);
    expect(csv.split("\n")[0]).toBe("Granted,Branch,By,Customer,Phone,Reference,Nearest Branch");
    expect(csv).toContain(`Grant Seer,${seer.user.name} (${seer.user.email}),Seen Customer`);

    // The branch that granted sees its own grants; another branch's user none of them.
    const own = await call(grantsApi as never, req("GET", "/api/v1/preregistration/grants", { token: seer.token }));
    expect(((await own.json()) as { data: GrantRow[] }).data.map((r) => r.preregistration.slug)).toEqual([entry.slug]);
    const outsider = await staffWith(["read-registration"], other);
    const theirs = await call(
      grantsApi as never,
      req("GET", "/api/v1/preregistration/grants", { token: outsider.token }),
    );
    expect(((await theirs.json()) as { data: GrantRow[] }).data.map((r) => r.preregistration.slug)).not.toContain(
      entry.slug,
    );

    // The entry's page names the branch it was granted to (and, for head office, who).
    const page = async (cookie: string) =>
      (await (
        await call(
          entryPage as never,
          req("GET", `/admin/preregistration/${entry.slug}`, { headers: { Cookie: cookie } }),
          {
            slug: entry.slug,
          },
        )
      ).json()) as { grants: { branch: string; granted_by: string | null }[] };
    expect((await page(head.cookie)).grants).toEqual([
      expect.objectContaining({ branch: "Grant Seer", granted_by: `${seer.user.name} (${seer.user.email})` }),
    ]);
    const owner = await staffWith(["read-registration"], other);
    expect((await page(owner.cookie)).grants).toEqual([
      expect.objectContaining({ branch: "Grant Seer", granted_by: null }),
    ]);
  });
});
