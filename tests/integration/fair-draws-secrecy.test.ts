/**
 * The running day's house seed is never in an answer: every page and API call of the app is
 * opened (public, as head office by cookie and by token) on a database with today's draws,
 * and no answer holds the seed, sealed or not. The fair-draws API answers 422 and 404 as
 * documented.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { houseSeedOf } from "~/models/fair-draw.server";
import { drawSecondThrill } from "~/models/prize-draw.server";
import { PERMISSIONS } from "~/utils/permissions";
import { kathmanduDate, now, shiftDate } from "~/utils/time";
import { loader as dayLoader } from "~/routes/api.v1.fair-draws.$date";
import { loader as daysLoader } from "~/routes/api.v1.fair-draws";
import { call, req, staffWith } from "../route-helpers";
import { makeAllocation, makeBranch, makePreregistration } from "../fixtures";

type Args = { request: Request; context: { clientAddress: string }; params: Record<string, string> };
type RouteModule = { loader?: (args: Args) => unknown };
const modules = import.meta.glob<RouteModule>("/app/routes/*.{ts,tsx}", { eager: true });

let seed = "";
let sealed = "";
let today = "";
let params: Record<string, string> = {};

beforeAll(async () => {
  today = kathmanduDate(now());
  makeBranch();
  makeAllocation({ type: "preregistration_public", date: today, amount: 5000, count: 5, probability: 50 });
  const entries = Array.from({ length: 5 }, () => makePreregistration({ is_verified: true }));
  await Promise.all(entries.map((e) => drawSecondThrill(e.id)));
  seed = houseSeedOf(db, today);
  sealed = db.select().from(schema.fairDays).where(eq(schema.fairDays.date, today)).get()!.house_sealed;
  params = { slug: entries[0].slug, id: String(entries[0].id), date: today, key: "x", code: "x", "*": "x" };
});

async function bodyOf(res: Response): Promise<string> {
  return Buffer.from(await res.arrayBuffer()).toString("latin1");
}

describe("the running day's seed", () => {
  it("is in no page and no API answer, for a visitor, head office's session or head office's token", async () => {
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    const admin = await staffWith([...PERMISSIONS]);
    const callers: Record<string, string>[] = [
      {},
      { Cookie: admin.cookie },
      { Authorization: `Bearer ${admin.token}` },
    ];
    let opened = 0;
    for (const [file, mod] of Object.entries(modules)) {
      if (!mod.loader) continue;
      const path = file
        .replace(/^.*\/routes\//, "/")
        .replace(/\.tsx?$/, "")
        .replace(/\./g, "/");
      for (const headers of callers) {
        const res = await call(
          mod.loader as never,
          req("GET", `${path}?date=${today}&from=${today}`, { headers }),
          params,
        ).catch((err: unknown) => new Response(String(err), { status: 599 }));
        const text = await bodyOf(res);
        expect(text, `${file} answered with the seed`).not.toContain(seed);
        expect(text, `${file} answered with the sealed seed`).not.toContain(sealed.split(":")[3]);
        if (res.status === 200) opened++;
      }
    }
    expect(opened).toBeGreaterThan(50);
  });

  it("is null in the day's API record until the day is closed, and every entry and draw of today is there", async () => {
    const day = (
      await (await call(dayLoader as never, req("GET", `/api/v1/fair-draws/${today}`), { date: today })).json()
    ).data;
    expect(day).toMatchObject({ date: today, house_seed: null, over: false, entries: 5, draws: 5 });
    expect(day.records).toHaveLength(10);
    expect(day.head).toBe(day.records[9].hash);
    const days = (await (await call(daysLoader as never, req("GET", "/api/v1/fair-draws"))).json()).data.days;
    expect(days.map((d: { date: string }) => d.date)).toContain(today);
    expect(days.map((d: { date: string }) => d.date)).not.toContain(shiftDate(today, 2));
  });
});

describe("GET /api/v1/fair-draws/{date}", () => {
  it("422 for a date that is not YYYY-MM-DD, 404 for a day never committed", async () => {
    const bad = await call(dayLoader as never, req("GET", "/api/v1/fair-draws/yesterday"), { date: "yesterday" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors.date).toEqual(["The date must be YYYY-MM-DD."]);
    const none = await call(dayLoader as never, req("GET", "/api/v1/fair-draws/2001-01-01"), { date: "2001-01-01" });
    expect(none.status).toBe(404);
  });
});
