// The .xls downloads through their route modules: values read back exactly as on screen (never
// rewritten, never formulas), and a large export leaves the server free to answer other requests.
import XLSX from "sheetjs-style";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { loader as regDownload } from "~/routes/api.v1.registration.download";
import { loader as preDownload } from "~/routes/api.v1.preregistration.download";
import { loader as regList } from "~/routes/api.v1.registration";
import { issueToken } from "~/http/api.server";
import { randomSlug } from "~/utils/crypto.server";
import { referrerText } from "~/models/labels";
import { displayDateTime, displayDay } from "~/utils/time";
import { makeBikeModel, makeBranch, makePreregistration, makeUser } from "../fixtures";
import { responseOf } from "../route-helpers";

const ctx = { clientAddress: "10.9.0.2" };
let token = "";
let branch: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;

const get = (path: string) => ({
  request: new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${token}` } }),
  context: ctx,
  params: {},
});

const answer = responseOf;

let seq = 0;
/** A registration's columns at a branch, with a purchased pre-registration of its own. */
function insertRegistrationValues(branchId: number) {
  const n = seq++;
  const pre = makePreregistration({ branch_id: branchId, nearest_branch_id: branchId, status: "purchased" });
  return {
    slug: randomSlug(),
    bill_no: `XB-${n}`,
    name: `Buyer ${n}`,
    address: "Patan",
    citizenship_no: "1234567890",
    phone: pre.phone,
    bike_model_id: model.id,
    engine_no: `XEN-${n}-${pre.id}`,
    chasis_no: `XCH-${n}-${pre.id}`,
    registration_no: `XRG-${n}-${pre.id}`,
    branch_id: branchId,
    preregistration_id: pre.id,
    purchase_date: "2026-11-20",
    coupon_code: `XCP-${n}-${pre.id}`,
    note: null as string | null,
  };
}

function insertRegistration(values: { slug?: string; name?: string; bill_no?: string; note?: string | null }) {
  const base = insertRegistrationValues(branch.id);
  return db
    .insert(schema.registrations)
    .values({
      ...base,
      slug: values.slug ?? base.slug,
      bill_no: values.bill_no ?? base.bill_no,
      name: values.name ?? base.name,
      note: values.note ?? null,
    })
    .returning()
    .get();
}

beforeAll(async () => {
  branch = makeBranch({ title: "Sheet Branch" });
  model = makeBikeModel("Sheet Model");
  const admin = await makeUser("super-admin", null);
  token = issueToken(admin.id, false).token;
});

describe("exported values read exactly as on screen", () => {
  it("slugs, names and bill numbers starting with - = + @ read back unchanged, as text, never as formulas", async () => {
    const tricky = [
      { slug: "-1zwKPE4Ygc5M3yx", name: "-Ram Thapa", bill_no: "-1001" },
      { slug: "=cmd|' /C calc'!A0", name: '=HYPERLINK("http://x.test","Sita")', bill_no: "=1+1" },
      { slug: "+9779800000000", name: "+Hari", bill_no: "+977-1" },
      { slug: "@SUM(A1:A9)", name: "@Laxmi", bill_no: "@B-12" },
    ];
    const made = tricky.map((t) => insertRegistration({ ...t, note: `${t.name[0]}note` }));
    const res = await answer(regDownload(get(`/api/v1/registration/download?branch=${branch.id}`)));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="Registrations.xls"');
    const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { type: "buffer" });
    const sheet = wb.Sheets.Registrations;
    const rows = XLSX.utils.sheet_to_json<Record<string, string>>(sheet);
    const header = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 })[0];
    for (const reg of made) {
      const i = rows.findIndex((r) => r.Slug === reg.slug);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(rows[i]).toMatchObject({ Slug: reg.slug, Name: reg.name, "Bill No": reg.bill_no, Note: reg.note });
      for (const column of ["Slug", "Name", "Bill No", "Note"]) {
        const cell = sheet[XLSX.utils.encode_cell({ r: i + 1, c: header.indexOf(column) })];
        expect(cell.t).toBe("s");
        expect(cell.f).toBeUndefined();
      }
    }
  });

  it("every cell of a Registrations.xls row reads as the list shows that row", async () => {
    const typed = insertRegistration({ name: "Typed Referral" });
    const referrer = insertRegistration({ name: "Referring Buyer" });
    const referred = insertRegistration({ name: "Referred Buyer" });
    const elsewhere = makeBranch({ title: "Far Branch" });
    const outside = db
      .insert(schema.registrations)
      .values({ ...insertRegistrationValues(elsewhere.id), name: "Far Referrer" })
      .returning()
      .get();
    const abroad = insertRegistration({ name: "Referred From Afar" });
    db.update(schema.registrations)
      .set({
        referred_by: "A walk-in friend",
        payment_mode: "FINANCE_EXCHANGE",
        coupon_amount: 7000,
        email: "t@x.test",
      })
      .where(eq(schema.registrations.id, typed.id))
      .run();
    db.update(schema.registrations)
      .set({ registration_id: referrer.id })
      .where(eq(schema.registrations.id, referred.id))
      .run();
    db.update(schema.registrations)
      .set({ registration_id: outside.id })
      .where(eq(schema.registrations.id, abroad.id))
      .run();
    db.update(schema.preregistrations)
      .set({ prize: 12000, is_verified: true, shared: true })
      .where(eq(schema.preregistrations.id, typed.preregistration_id))
      .run();

    // A branch manager's token: the referrer of another branch is named only as such.
    const manager = await makeUser("branch-manager", branch.id);
    const scoped = (path: string) => ({
      ...get(path),
      request: new Request(`http://localhost${path}`, {
        headers: { Authorization: `Bearer ${issueToken(manager.id, false).token}` },
      }),
    });
    const list = await (await answer(regList(scoped("/api/v1/registration?length=100")))).json();
    const res = await answer(regDownload(scoped("/api/v1/registration/download")));
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(
      XLSX.read(Buffer.from(await res.arrayBuffer()), { type: "buffer" }).Sheets.Registrations,
      { defval: "" },
    );
    const cell = (v: unknown) => (v === null || v === undefined ? "" : v);
    for (const made of [typed, referrer, referred, abroad]) {
      const shown = list.data.find((r: { slug: string }) => r.slug === made.slug);
      const sheet = rows.find((r) => r.Slug === made.slug);
      expect(shown).toBeDefined();
      expect(sheet).toEqual({
        Slug: shown.slug,
        "Bill No": shown.bill_no,
        Name: shown.name,
        Address: shown.address,
        Phone: shown.phone,
        Email: cell(shown.email),
        "Citizenship No": shown.citizenship_no,
        PAN: cell(shown.pan),
        Model: shown.bike_model.title,
        "Engine No": shown.engine_no,
        "Chassis No": shown.chasis_no,
        "Registration No": shown.registration_no,
        "Payment Mode": shown.payment_mode_label,
        Branch: shown.branch.title,
        City: shown.branch.city,
        "Date of Purchase": displayDay(shown.purchase_date),
        Status: shown.status_label,
        "First Thrill": shown.prizes.first,
        "Second Thrill": shown.prizes.second,
        "Third Thrill": shown.prizes.third,
        "Total Prize": shown.prizes.total,
        "Coupon Code": shown.coupon_code,
        "Referred By": referrerText(shown),
        Note: cell(shown.note),
        Registered: displayDateTime(shown.created_at),
      });
    }
    expect(rows.find((r) => r.Slug === typed.slug)).toMatchObject({
      "Referred By": "A walk-in friend",
      "Payment Mode": "Finance + Exchange",
      "Second Thrill": 12000,
      "Third Thrill": 7000,
    });
    expect(rows.find((r) => r.Slug === referred.slug)?.["Referred By"]).toBe("Referring Buyer");
    expect(rows.find((r) => r.Slug === abroad.slug)?.["Referred By"]).toBe("A customer of another branch");
  });

  it("pre-registration names and notes starting with - = + @ read back unchanged", async () => {
    const names = ["-Gita", "=2*3", "+Bishnu", "@Kamal"];
    const made = names.map((name) => makePreregistration({ name, note: name, branch_id: branch.id }));
    const res = await answer(preDownload(get(`/api/v1/preregistration/download?branch=${branch.id}`)));
    const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { type: "buffer" });
    const rows = XLSX.utils.sheet_to_json<Record<string, string>>(wb.Sheets.Preregistrations);
    for (const pre of made) {
      expect(rows.find((r) => r.Slug === pre.slug)).toMatchObject({ Name: pre.name, Note: pre.note });
    }
    const sheet = wb.Sheets.Preregistrations;
    for (const key of Object.keys(sheet).filter((k) => !k.startsWith("!"))) expect(sheet[key].f).toBeUndefined();
  });
});

describe("a large export leaves the server answering", () => {
  it(
    "a request made during a 30,000-row Registrations.xls is answered before the export",
    { timeout: 180_000 },
    async () => {
      const sqlite = db.$client;
      const count = 30_000;
      const start = (
        sqlite.prepare("select coalesce(max(id), 0) + 1 as n from preregistrations").get() as { n: number }
      ).n;
      const pre = sqlite.prepare(
        `insert into preregistrations (slug, name, address, phone, citizenship_no, branch_id, nearest_branch_id, status)
       values (?, ?, 'Bhaktapur', ?, '99887766', ?, ?, 'purchased')`,
      );
      const reg = sqlite.prepare(
        `insert into registrations (slug, bill_no, name, address, citizenship_no, phone, bike_model_id, engine_no,
        chasis_no, registration_no, branch_id, preregistration_id, purchase_date, coupon_code)
       values (?, ?, ?, 'Bhaktapur', '99887766', ?, ?, ?, ?, ?, ?, ?, '2026-11-21', ?)`,
      );
      const bulk = makeBranch({ title: "Bulk Branch" });
      sqlite.transaction(() => {
        for (let i = 0; i < count; i++) {
          const phone = String(9700000000 + start + i);
          const id = Number(pre.run(randomSlug(), `Bulk ${i}`, phone, bulk.id, bulk.id).lastInsertRowid);
          reg.run(
            randomSlug(),
            `BK-${i}`,
            `Bulk ${i}`,
            phone,
            model.id,
            `BEN${id}`,
            `BCH${id}`,
            `BRG${id}`,
            bulk.id,
            id,
            `BCP${id}`,
          );
        }
      })();

      const events: string[] = [];
      let ticks = 0;
      let exporting = true;
      const tick = () => {
        ticks++;
        if (exporting) setTimeout(tick, 1);
      };
      const download = answer(regDownload(get(`/api/v1/registration/download?branch=${bulk.id}`))).then((res) => {
        exporting = false;
        events.push("export answered");
        return res;
      });
      setTimeout(tick, 1);
      // Made once the export is under way: a macrotask later, the loader is writing rows.
      await new Promise((r) => setTimeout(r, 5));
      const other = answer(regList(get(`/api/v1/registration?length=10&branch=${branch.id}`))).then((res) => {
        events.push("other answered");
        return res;
      });
      const [file, list] = await Promise.all([download, other]);

      expect(events).toEqual(["other answered", "export answered"]);
      expect(list.status).toBe(200);
      expect(ticks).toBeGreaterThan(10); // timers kept firing during the export
      expect(file.status).toBe(200);
      const wb = XLSX.read(Buffer.from(await file.arrayBuffer()), { type: "buffer", sheetRows: 3 });
      expect(wb.SheetNames).toEqual(["Registrations"]);
      expect(wb.Sheets.Registrations["!fullref"]).toMatch(new RegExp(`^A1:[A-Z]+${count + 1}$`));
    },
  );
});
