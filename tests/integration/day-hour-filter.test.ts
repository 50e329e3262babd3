/**
 * One date-and-hour filter: a day (yyyy/MM/dd) and an hour (00–23) for From and To, in Asia/Kathmandu
 * time. From starts at its hour, To runs through its hour's end. The list's page, its API and its
 * download read it the same way: the same rows, and the same message under From for a bad hour.
 */
import XLSX from "sheetjs-style";
import { beforeAll, describe, expect, it } from "vitest";
import { foldHours } from "~/schemas/primitives";
import { loader as ridePage } from "~/routes/admin.test-ride._index";
import { loader as rideApi } from "~/routes/api.v1.test-ride";
import { loader as rideDownload } from "~/routes/api.v1.test-ride.download";
import { kathmanduToUtc } from "~/utils/time";
import { PERMISSIONS } from "~/utils/permissions";
import { makeBranch } from "../fixtures";
import { makeTestRide } from "../referral-fixtures";
import { call, req, staffWith } from "../route-helpers";

describe("foldHours", () => {
  it("puts From at its hour's start and To at its hour's end, in Kathmandu wall-clock time", () => {
    expect(foldHours({ from: "2026/11/24", from_hour: "13", to: "2026/11/24", to_hour: "13" })).toEqual({
      from: "2026-11-24 13:00",
      to: "2026-11-24 14:00",
    });
    expect(foldHours({ to: "2026/12/31", to_hour: "23" })).toEqual({ to: "2027-01-01 00:00" });
    expect(foldHours({ from: "2026/11/24", from_hour: "", to: "2026/11/25" })).toEqual({
      from: "2026/11/24",
      to: "2026/11/25",
    });
    expect(foldHours({ from: "2026/11/24", from_hour: "7" }).from).toBe("2026-11-24 07:00");
  });

  it("leaves a bad hour, or an hour without a day, unreadable (its message under the field)", () => {
    expect(foldHours({ from: "2026/11/24", from_hour: "24" }).from).toBe("2026/11/24 24");
    expect(foldHours<Record<string, string>>({ to_hour: "10" }).to).toBe("10");
  });
});

describe("the test-ride list, its API and its download", () => {
  let token = "";
  let cookie = "";
  const at = (local: string) => kathmanduToUtc(local);
  beforeAll(async () => {
    const staff = await staffWith([...PERMISSIONS]);
    token = staff.token;
    cookie = staff.cookie;
    const branch = makeBranch().id;
    for (const [name, time] of [
      ["Before", "2031-03-10T12:59"],
      ["AtOne", "2031-03-10T13:00"],
      ["LateOne", "2031-03-10T13:59"],
      ["AtTwo", "2031-03-10T14:00"],
    ]) {
      makeTestRide(branch, { name, first_name: name, created_at: at(time) });
    }
  });

  const query = "from=2031/03/10&from_hour=13&to=2031/03/10&to_hour=13";

  it("keep the same rows: From 13 and To 13 is the hour 13:00–13:59", async () => {
    const api = await call(rideApi as never, req("GET", `/api/v1/test-ride?${query}&length=100`, { token }));
    const names = ((await api.json()).data as { name: string }[]).map((r) => r.name).sort();
    expect(names).toEqual(["AtOne", "LateOne"]);

    const page = await call(
      ridePage as never,
      req("GET", `/admin/test-ride?${query}&length=100`, { headers: { Cookie: cookie } }),
    );
    expect(((await page.json()).table.data as { name: string }[]).map((r) => r.name).sort()).toEqual(names);

    const file = await call(rideDownload as never, req("GET", `/api/v1/test-ride/download?${query}`, { token }));
    const book = XLSX.read(Buffer.from(await file.arrayBuffer()), { type: "buffer" });
    const rows = XLSX.utils.sheet_to_json<Record<string, string>>(book.Sheets[book.SheetNames[0]]);
    expect(rows.map((r) => r.Name).sort()).toEqual(names);
  });

  it("answer a bad hour with the same message under From", async () => {
    const bad = "from=2031/03/10&from_hour=25";
    const api = await call(rideApi as never, req("GET", `/api/v1/test-ride?${bad}`, { token }));
    expect(api.status).toBe(422);
    const apiErrors = (await api.json()).errors;
    const page = await call(ridePage as never, req("GET", `/admin/test-ride?${bad}`, { headers: { Cookie: cookie } }));
    expect((await page.json()).filterErrors.from).toEqual(apiErrors.from);
    const file = await call(rideDownload as never, req("GET", `/api/v1/test-ride/download?${bad}`, { token }));
    expect(file.status).toBe(422);
    expect((await file.json()).errors.from).toEqual(apiErrors.from);
    expect(apiErrors.from?.length).toBe(1);
  });
});
