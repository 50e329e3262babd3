// List filters and table parameters parsed with zod: a bad value (?from=abc, a model that is not an
// id, a negative prize, a start that is not a number) answers the list page with the message under
// its filter (422, no rows) and the API with 422 {message, errors}, never 500. A from/to of one
// Kathmandu day lists that whole day.
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { action as loginAction } from "~/routes/login";
import { loader as testRidePage } from "~/routes/admin.test-ride._index";
import { loader as testRideApi } from "~/routes/api.v1.test-ride";
import { loader as registrationPage } from "~/routes/admin.registration._index";
import { loader as deletedPage } from "~/routes/admin.registration.deleted";
import { loader as dashboardPage } from "~/routes/admin._index";
import { loader as printPage } from "~/routes/admin.print";
import { loader as registrationApi } from "~/routes/api.v1.registration";
import { loader as deletedApi } from "~/routes/api.v1.registration.deleted";
import { loader as printApi } from "~/routes/api.v1.registration.print";
import { listTestRides } from "~/models/test-ride.server";
import { DATE_MESSAGE, TO_BEFORE_FROM } from "~/schemas/primitives";
import { REGISTRATION_FILTER_MESSAGES } from "~/schemas/registration";
import { issueToken } from "~/http/api.server";
import { parseTableParams } from "~/utils/datatable.server";
import { TABLE_MESSAGES } from "~/http/list-query.server";
import { randomSlug } from "~/utils/crypto.server";
import { kathmanduToUtc, shiftDate } from "~/utils/time";
import { makeBikeModel, makeBranch, makeUser } from "../fixtures";
import { answerOf } from "../route-helpers";

const ctx = { clientAddress: "10.6.0.1" };
let cookie = "";
let token = "";
let branch: ReturnType<typeof makeBranch>;
const DAY = "2026-03-14";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read JSON bodies of many shapes field by field
type Json = Record<string, any>;

/** A loader's answer as status and JSON body, whether it returned data, a Response or threw one. */
async function answer(p: unknown): Promise<{ status: number; body: Json }> {
  const out = await answerOf(() => p);
  if (out instanceof Response) return { status: out.status, body: await out.json().catch(() => ({})) };
  const r = out as { type?: string; data?: unknown; init?: { status?: number } | null };
  if (r?.type === "DataWithResponseInit") return { status: r.init?.status ?? 200, body: r.data as Json };
  return { status: 200, body: out as Json };
}

const page = (path: string) => ({
  request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }),
  context: ctx,
  params: {},
});
const api = (path: string) => ({
  request: new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${token}` } }),
  context: ctx,
  params: {},
});

function rideAt(kathmanduWallClock: string, name: string) {
  return db
    .insert(schema.testRides)
    .values({
      slug: randomSlug(),
      first_name: name,
      name,
      phone: "9841000002",
      bike_model_id: makeBikeModel().id,
      branch_id: branch.id,
      state: "Bagmati",
      district: "Kathmandu",
      city: "Kathmandu",
      created_at: kathmanduToUtc(kathmanduWallClock),
    })
    .returning()
    .get();
}

beforeAll(async () => {
  branch = makeBranch({ title: "Filter Branch" });
  const user = await makeUser("branch-manager", branch.id);
  const res = (await loginAction({
    request: new Request("http://localhost/login", {
      method: "POST",
      body: new URLSearchParams({ email: user.email, password: user.password }),
    }),
    context: ctx,
    params: {},
  })) as Response;
  cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  token = issueToken(user.id, false).token;
  // Just after midnight and just before the next one, Kathmandu time; and one the day after.
  rideAt(`${DAY}T00:05`, "Early Rider");
  rideAt(`${DAY}T23:55`, "Late Rider");
  rideAt(`${shiftDate(DAY, 1)}T00:10`, "Next Day Rider");
});

describe("the test-ride list", () => {
  it("from = to = the booking's day lists that whole Kathmandu day", async () => {
    const names = (f: { from?: string; to?: string }) =>
      listTestRides({ branchId: branch.id }, parseTableParams(new URLSearchParams()), f).data.map((r) => r.name);
    expect(names({ from: DAY, to: DAY }).sort()).toEqual(["Early Rider", "Late Rider"]);
    expect(names({ from: `${DAY}T00:00`, to: `${DAY}T12:00` })).toEqual(["Early Rider"]);
    expect(names({ to: DAY }).sort()).toEqual(["Early Rider", "Late Rider"]);
    expect(names({ from: shiftDate(DAY, 1) })).toEqual(["Next Day Rider"]);

    const viaApi = await answer(testRideApi(api(`/api/v1/test-ride?from=${DAY}&to=${DAY}`)));
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.data.map((r: { name: string }) => r.name).sort()).toEqual(["Early Rider", "Late Rider"]);
    const viaPage = await answer(testRidePage(page(`/admin/test-ride?from=${DAY}&to=${DAY}`)));
    expect(viaPage.body.table.recordsFiltered).toBe(2);
  });

  it("?from=abc answers the page with the message under From (422), not 500", async () => {
    const res = await answer(testRidePage(page("/admin/test-ride?from=abc")));
    expect(res.status).toBe(422);
    expect(res.body.filterErrors).toEqual({ from: [DATE_MESSAGE] });
    expect(res.body.table).toMatchObject({ data: [], recordsFiltered: 0 });
  });

  it("?from=abc answers the API with 422 {message, errors}, not 500", async () => {
    const res = await answer(testRideApi(api("/api/v1/test-ride?from=abc&to=2026-02-30")));
    expect(res).toEqual({
      status: 422,
      body: { message: DATE_MESSAGE, errors: { from: [DATE_MESSAGE], to: [DATE_MESSAGE] } },
    });
    const backwards = await answer(testRideApi(api(`/api/v1/test-ride?from=${DAY}&to=${shiftDate(DAY, -1)}`)));
    expect(backwards).toEqual({ status: 422, body: { message: TO_BEFORE_FROM, errors: { to: [TO_BEFORE_FROM] } } });
    const paging = await answer(testRideApi(api("/api/v1/test-ride?start=abc")));
    expect(paging).toEqual({
      status: 422,
      body: { message: TABLE_MESSAGES.start, errors: { start: [TABLE_MESSAGES.start] } },
    });
  });
});

describe("the registration lists", () => {
  const bad = "from=abc&bike_model=x&prize=-5&payment_mode=CHEQUE";
  const expected = {
    from: [DATE_MESSAGE],
    bike_model: [REGISTRATION_FILTER_MESSAGES.bikeModel],
    prize: [REGISTRATION_FILTER_MESSAGES.amount],
    payment_mode: [REGISTRATION_FILTER_MESSAGES.paymentMode],
  };

  it("pages answer bad filters with their messages and no rows (422): list, trash, dashboard, print", async () => {
    for (const [loader, path] of [
      [registrationPage, "/admin/registration"],
      [deletedPage, "/admin/registration/deleted"],
      [dashboardPage, "/admin"],
    ] as const) {
      const res = await answer(loader(page(`${path}?${bad}`)));
      expect(res.status, path).toBe(422);
      expect(res.body.filterErrors, path).toEqual(expected);
      expect((res.body.table ?? res.body.buyers).data, path).toEqual([]);
    }
    // The dashboard's figures still show.
    const dashboard = await answer(dashboardPage(page(`/admin?${bad}`)));
    expect(dashboard.body.stats.total).toBeGreaterThanOrEqual(0);
    const print = await answer(printPage(page(`/admin/print?${bad}`)));
    expect(print.status).toBe(422);
    expect(print.body).toMatchObject({ coupons: [], filterErrors: expected });
  });

  it("the API answers bad filters with 422 {message, errors}: list, trash, print", async () => {
    for (const [loader, path] of [
      [registrationApi, "/api/v1/registration"],
      [deletedApi, "/api/v1/registration/deleted"],
      [printApi, "/api/v1/registration/print"],
    ] as const) {
      const res = await answer(loader(api(`${path}?${bad}`)));
      expect(res.status, path).toBe(422);
      expect(res.body.errors, path).toEqual(expected);
      expect(typeof res.body.message).toBe("string");
    }
  });

  it("good filters still answer 200", async () => {
    const res = await answer(registrationApi(api(`/api/v1/registration?from=${DAY}&to=${DAY}&post_prize=0&start=0`)));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], recordsFiltered: 0 });
    const list = await answer(registrationPage(page(`/admin/registration?status=drawn&search=nobody`)));
    expect(list.status).toBe(200);
    expect(list.body.filterErrors).toBeNull();
  });
});
