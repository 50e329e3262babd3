/**
 * The date-and-hour filter on the draw audit, the referrer report, the SMS outbox and the audit trail:
 * From 13 and To 13 of a day is its hour 13:00–13:59 in Kathmandu, the same rows on the page, in the
 * API and in the download; "yyyy-MM-dd HH:mm" is read by the API; anything else is 422 with the
 * message under From, as the page shows it; To before From is refused.
 */
import { eq } from "drizzle-orm";
import XLSX from "sheetjs-style";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { drawSecondThrill } from "~/models/prize-draw.server";
import { loader as outboxPage } from "~/routes/admin.outbox";
import { loader as referrerPage } from "~/routes/admin.referrer";
import { loader as drawsPage } from "~/routes/admin.scheme.draws";
import { loader as drawsApi } from "~/routes/api.v1.draws";
import { loader as drawsDownload } from "~/routes/api.v1.draws.download";
import { loader as referrerApi } from "~/routes/api.v1.referrer";
import { loader as referrerDownload } from "~/routes/api.v1.referrer.download";
import { PERMISSIONS } from "~/utils/permissions";
import { kathmanduToUtc } from "~/utils/time";
import { makeBranch, makePreregistration } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";
import { call, req, staffWith } from "../route-helpers";

const DAY = "2031/04/07";
const HOUR_13 = `from=${DAY}&from_hour=13&to=${DAY}&to_hour=13`;
const TIMES = ["2031-04-07T12:59", "2031-04-07T13:00", "2031-04-07T13:59", "2031-04-07T14:00"];
const at = (local: string) => kathmanduToUtc(local);

let token = "";
let cookie = "";
const drawIds = new Map<string, number>();
const smsIds = new Map<string, number>();
let referrer = "";

beforeAll(async () => {
  const staff = await staffWith([...PERMISSIONS]);
  token = staff.token;
  cookie = staff.cookie;
  const branch = makeBranch().id;
  for (const time of TIMES) {
    const entry = makePreregistration({ is_verified: true });
    // Given values: a draw row at that instant (the list's filters are under test, not the draw).
    drawIds.set(time, drawSecondThrill(entry.id, { now: new Date(at(time)), random: () => 0.5 }).draw.id);
    const sms = db
      .insert(schema.smsMessages)
      .values({ to: "9800000000", text: `sent ${time}`, purpose: "notify", provider: "log", created_at: at(time) })
      .returning()
      .get();
    smsIds.set(time, sms.id);
  }
  // One referrer whose referrals fall at each of the four times.
  const source = makeRegistration(branch);
  referrer = source.slug;
  for (const time of TIMES) makeRegistration(branch, { registration_id: source.id, created_at: at(time) });
});

const page = (loader: unknown, path: string) =>
  call(loader as never, req("GET", path, { headers: { Cookie: cookie } })).then((r) => r.json());
const api = (loader: unknown, path: string) => call(loader as never, req("GET", path, { token }));
const sheetRows = async (response: Response) => {
  const book = XLSX.read(Buffer.from(await response.arrayBuffer()), { type: "buffer" });
  return XLSX.utils.sheet_to_json<Record<string, string | number>>(book.Sheets[book.SheetNames[0]]);
};
const mine = (ids: Map<string, number>, got: number[]) =>
  TIMES.filter((t) => got.includes(ids.get(t)!)).map((t) => t.slice(11));

describe("the draw audit", () => {
  it("keeps the hour 13:00–13:59 on the page, in the API and in Draws.xls", async () => {
    const onPage = (await page(drawsPage, `/admin/scheme/draws?${HOUR_13}&length=100`)).table.data as { id: number }[];
    expect(
      mine(
        drawIds,
        onPage.map((d) => d.id),
      ),
    ).toEqual(["13:00", "13:59"]);
    const listed = (await (await api(drawsApi, `/api/v1/draws?${HOUR_13}&length=100`)).json()).data as {
      id: number;
    }[];
    expect(
      mine(
        drawIds,
        listed.map((d) => d.id),
      ),
    ).toEqual(["13:00", "13:59"]);
    const file = await sheetRows(await api(drawsDownload, `/api/v1/draws/download?${HOUR_13}`));
    expect(
      mine(
        drawIds,
        file.map((r) => Number(r.ID)),
      ),
    ).toEqual(["13:00", "13:59"]);
  });

  it("reads a day and hour as the API writes it, and a day as the whole day", async () => {
    const typed = await api(drawsApi, `/api/v1/draws?from=2031-04-07 13:00&to=2031-04-07 14:00&length=100`);
    expect(
      mine(
        drawIds,
        ((await typed.json()).data as { id: number }[]).map((d) => d.id),
      ),
    ).toEqual(["13:00", "13:59"]);
    const day = await api(drawsApi, `/api/v1/draws?from=${DAY}&to=${DAY}&length=100`);
    expect(
      mine(
        drawIds,
        ((await day.json()).data as { id: number }[]).map((d) => d.id),
      ),
    ).toEqual(TIMES.map((t) => t.slice(11)));
  });

  it("answers a bad hour or day with 422 and the page's message under From; To before From is refused", async () => {
    for (const bad of [`from=${DAY}&from_hour=24`, "from=2031-04-07 25:00", "from=tomorrow", "from=2031/02/30"]) {
      const answer = await api(drawsApi, `/api/v1/draws?${bad}`);
      expect(answer.status, bad).toBe(422);
      const errors = (await answer.json()).errors;
      expect((await page(drawsPage, `/admin/scheme/draws?${bad}`)).errors.from, bad).toEqual(errors.from);
      expect((await api(drawsDownload, `/api/v1/draws/download?${bad}`)).status, bad).toBe(422);
    }
    const backwards = await api(drawsApi, `/api/v1/draws?from=${DAY}&from_hour=14&to=${DAY}&to_hour=13`);
    expect(backwards.status).toBe(422);
    expect((await backwards.json()).errors.to).toEqual(["The end date must be on or after the start date."]);
  });
});

describe("the referrer report", () => {
  const referrals = async (body: { data: { slug: string; referrals_count: number }[] }) =>
    body.data.find((r) => r.slug === referrer)?.referrals_count ?? 0;

  it("counts the referrals of the hour 13:00–13:59 on the page, in the API and in the download", async () => {
    const onPage = await page(referrerPage, `/admin/referrer?${HOUR_13}&length=100`);
    expect(await referrals(onPage.table)).toBe(2);
    const listed = await (await api(referrerApi, `/api/v1/referrer?${HOUR_13}&length=100`)).json();
    expect(await referrals(listed)).toBe(2);
    const row = listed.data.find((r: { slug: string }) => r.slug === referrer);
    const file = await sheetRows(await api(referrerDownload, `/api/v1/referrer/download?${HOUR_13}`));
    expect(file.find((r) => r.Title === row.title)?.Referrals).toBe(2);
    expect(await referrals(await (await api(referrerApi, `/api/v1/referrer?from=${DAY}&to=${DAY}`)).json())).toBe(4);
  });

  it("says the range it counts, To shown at its hour's last minute", async () => {
    const onPage = await page(referrerPage, `/admin/referrer?${HOUR_13}`);
    expect(onPage.filters).toMatchObject({ from: "2031-04-07 13:00", to: "2031-04-07 14:00" });
    const bad = await api(referrerApi, `/api/v1/referrer?from=${DAY}&from_hour=99`);
    expect(bad.status).toBe(422);
    expect((await page(referrerPage, `/admin/referrer?from=${DAY}&from_hour=99`)).filterErrors.from).toEqual(
      (await bad.json()).errors.from,
    );
  });
});

describe("the SMS outbox", () => {
  it("filters by From and To with their hours, and says a bad day under From", async () => {
    const onPage = (await page(outboxPage, `/admin/outbox?${HOUR_13}&length=100`)) as {
      data: { id: number }[];
      errors: Record<string, string[]>;
    };
    expect(onPage.errors).toEqual({});
    expect(
      mine(
        smsIds,
        onPage.data.map((m) => m.id),
      ),
    ).toEqual(["13:00", "13:59"]);
    const bad = await page(outboxPage, `/admin/outbox?from=2031/13/01&length=100`);
    expect(bad.errors.from).toEqual(["Enter the date as yyyy/MM/dd."]);
    // The bad filter is left out: the list shows every message.
    expect(
      mine(
        smsIds,
        (bad.data as { id: number }[]).map((m) => m.id),
      ),
    ).toEqual(TIMES.map((t) => t.slice(11)));
    const row = db
      .select()
      .from(schema.smsMessages)
      .where(eq(schema.smsMessages.id, smsIds.get(TIMES[0])!))
      .get();
    expect(row?.created_at).toBe(at(TIMES[0]));
  });
});
