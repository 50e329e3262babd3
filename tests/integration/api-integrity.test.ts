/**
 * The integrity API (decision 21): GET /api/v1/integrity/flags (the DataTables protocol and its
 * filters), GET and POST /api/v1/integrity/flags/{id} (a decision: clear, hold or void with a note;
 * 422 for a missing note or another action) and Flags.xls, for review-integrity; a branch user is
 * refused every call even when its role holds the permission.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@db/index";
import { raiseFlag } from "~/models/integrity-flags.server";
import type { Finding } from "~/models/integrity-findings";
import { loader as listFlags } from "~/routes/api.v1.integrity.flags";
import { action as decide, loader as oneFlag } from "~/routes/api.v1.integrity.flags.$id";
import { loader as download } from "~/routes/api.v1.integrity.flags.download";
import { makeBranch, makePreregistration } from "../fixtures";
import { call, req, staffWith } from "../route-helpers";

let office = "";
let branchUser = "";
let reader = "";
let branchId = 0;
const ids: number[] = [];

const finding = (reason: Finding["reason"], key: string, strength: number, branch: number | null): Finding => ({
  reason,
  subjectType: "entry",
  subjectKey: key,
  branchId: branch,
  userId: null,
  strength,
  evidence: {
    subject: { label: `Subject ${key}` },
    summary: `Summary ${key}`,
    figures: [{ label: "n", value: "2" }],
    rows: [],
  },
  entries: [makePreregistration().id],
});

beforeAll(async () => {
  branchId = makeBranch().id;
  office = (await staffWith(["review-integrity"])).token;
  branchUser = (await staffWith(["review-integrity", "read-registration"], branchId)).token;
  reader = (await staffWith(["read-registration"])).token;
  ids.push(raiseFlag(db, finding("shared-citizenship", "a", 40, branchId)).id);
  ids.push(raiseFlag(db, finding("phone-run", "b", 70, null)).id);
  ids.push(raiseFlag(db, finding("remade-entry", "c", 35, branchId)).id);
});

const list = (query: string, token = office) =>
  call(listFlags as never, req("GET", `/api/v1/integrity/flags?${query}`, { token }));
const post = (id: number | string, json: unknown, token = office) =>
  call(decide as never, req("POST", `/api/v1/integrity/flags/${id}`, { token, json }), { id: String(id) });

describe("the integrity API", () => {
  it("lists flags strongest first with the rows' fields, and filters them", async () => {
    const res = await list("draw=3&start=0&length=10");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ draw: 3, recordsTotal: 3, recordsFiltered: 3 });
    expect(body.data.map((r: { reason: string }) => r.reason)).toEqual([
      "phone-run",
      "shared-citizenship",
      "remade-entry",
    ]);
    for (const key of ["id", "reason", "subject_type", "subject", "branch", "evidence", "status", "raised_at"])
      expect(body.data[0]).toHaveProperty(key);
    expect((await (await list(`reason=remade-entry`)).json()).data.map((r: { id: number }) => r.id)).toEqual([ids[2]]);
    expect((await (await list(`branch=${branchId}`)).json()).recordsFiltered).toBe(2);
    expect((await (await list(`status=cleared`)).json()).recordsFiltered).toBe(0);
    expect((await (await list(`from=2000-01-01&to=2000-01-02`)).json()).recordsFiltered).toBe(0);
    const bad = await list("reason=nonsense");
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors.reason).toBeTruthy();
  });

  it("decides with a note: 422 without one or for another action, 404 for no such flag", async () => {
    const missing = await post(ids[0], { action: "clear" });
    expect(missing.status).toBe(422);
    expect((await missing.json()).errors.note).toBeTruthy();
    const wrong = await post(ids[0], { action: "pay", note: "why" });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).errors.action).toBeTruthy();
    expect((await post(999999, { action: "clear", note: "n" })).status).toBe(404);
    const held = await post(ids[0], { action: "hold", note: "Calling the branch." });
    expect(held.status).toBe(200);
    expect((await held.json()).data.flag).toMatchObject({ id: ids[0], status: "held", note: "Calling the branch." });
    const got = await call(oneFlag as never, req("GET", `/api/v1/integrity/flags/${ids[0]}`, { token: office }), {
      id: String(ids[0]),
    });
    expect((await got.json()).data.decisions.map((d: { action: string }) => d.action)).toEqual(["integrity.hold"]);
  });

  it("refuses a branch user every call, whatever its role holds, and a user without the permission", async () => {
    expect((await list("", branchUser)).status).toBe(403);
    expect((await post(ids[1], { action: "clear", note: "mine" }, branchUser)).status).toBe(403);
    expect(
      (
        await call(oneFlag as never, req("GET", `/api/v1/integrity/flags/${ids[1]}`, { token: branchUser }), {
          id: String(ids[1]),
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(download as never, req("GET", "/api/v1/integrity/flags/download", { token: branchUser }))).status,
    ).toBe(403);
    expect((await list("", reader)).status).toBe(403);
  });

  it("downloads the list as Flags.xls", async () => {
    const res = await call(
      download as never,
      req("GET", "/api/v1/integrity/flags/download?status=all", { token: office }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/Flags\.xls/);
    expect(await res.text()).toContain("Summary b");
  });
});
