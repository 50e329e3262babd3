/**
 * The running day's seed is never in an answer: every page and API call of the app is
 * opened (public, as head office by cookie and by token) on a database with today's draws,
 * and no answer holds the seed. The fair-draws API answers 422 and 404 as documented,
 * and a day that is over publishes its seed.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
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
let today = "";
let params: Record<string, string> = {};

beforeAll(() => {
  today = kathmanduDate(now());
  makeBranch();
  makeAllocation({ type: "preregistration_public", date: today, amount: 5000, count: 5, probability: 50 });
  const entries = Array.from({ length: 5 }, () => makePreregistration({ is_verified: true }));
  for (const e of entries) drawSecondThrill(e.id);
  seed = db.select().from(schema.drawDays).where(eq(schema.drawDays.date, today)).get()!.seed;
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
        if (res.status === 200) opened++;
      }
    }
    expect(opened).toBeGreaterThan(50);
  });

  it("is null in the day's API record until the day is over, and every draw of today is there", async () => {
    const day = (
      await (await call(dayLoader as never, req("GET", `/api/v1/fair-draws/${today}`), { date: today })).json()
    ).data;
    expect(day).toMatchObject({ date: today, seed: null, over: false });
    expect(day.records).toHaveLength(5);
    expect(day.head).toBe(day.records[4].hash);
    const days = (await (await call(daysLoader as never, req("GET", "/api/v1/fair-draws"))).json()).data;
    expect(days.map((d: { date: string }) => d.date)).toEqual(expect.arrayContaining([today, shiftDate(today, 1)]));
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
