// One pipeline per list: its page, its API and its download read the query with the same zod
// schema, so the same bad filter gets the same message at the same field in all three (the page
// shows it under the filter; the API and the download answer 422 {message, errors}). A filter one
// of them accepted and another refused would let a download disagree with the rows on screen.
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { loader as auditPage } from "~/routes/admin.audit";
import { loader as preregistrationPage } from "~/routes/admin.preregistration._index";
import { loader as referrerPage } from "~/routes/admin.referrer";
import { loader as registrationPage } from "~/routes/admin.registration._index";
import { loader as drawsPage } from "~/routes/admin.scheme.draws";
import { loader as schemePage } from "~/routes/admin.scheme._index";
import { loader as testRidePage } from "~/routes/admin.test-ride._index";
import { loader as allocationApi } from "~/routes/api.v1.allocation";
import { loader as auditDownload } from "~/routes/api.v1.audit.download";
import { loader as drawsApi } from "~/routes/api.v1.draws";
import { loader as drawsDownload } from "~/routes/api.v1.draws.download";
import { loader as preregistrationApi } from "~/routes/api.v1.preregistration";
import { loader as preregistrationDownload } from "~/routes/api.v1.preregistration.download";
import { loader as referrerApi } from "~/routes/api.v1.referrer";
import { loader as referrerDownload } from "~/routes/api.v1.referrer.download";
import { loader as registrationApi } from "~/routes/api.v1.registration";
import { loader as registrationDownload } from "~/routes/api.v1.registration.download";
import { loader as testRideApi } from "~/routes/api.v1.test-ride";
import { loader as grantsPage } from "~/routes/admin.preregistration.grants";
import { loader as grantsApi } from "~/routes/api.v1.preregistration.grants";
import { loader as grantsDownload } from "~/routes/api.v1.preregistration.grants.download";
import { loader as testRideDownload } from "~/routes/api.v1.test-ride.download";
import { call, req, staffWith } from "../route-helpers";

type Loader = Parameters<typeof call>[0];
type List = {
  name: string;
  page: Loader;
  /** Where the page's loader data holds its filter errors. */
  pageErrors: (body: Record<string, unknown>) => unknown;
  path: string;
  api: Loader;
  download?: Loader;
  /** A bad value for one of the list's filters, and that filter. */
  bad: string;
  field: string;
};

const filterErrors = (b: Record<string, unknown>) => b.filterErrors;
const errors = (b: Record<string, unknown>) => b.errors;

const LISTS: List[] = [
  {
    name: "registrations",
    page: registrationPage,
    pageErrors: filterErrors,
    path: "registration",
    api: registrationApi,
    download: registrationDownload,
    bad: "from=2026/02/30",
    field: "from",
  },
  {
    name: "pre-registrations",
    page: preregistrationPage,
    pageErrors: filterErrors,
    path: "preregistration",
    api: preregistrationApi,
    download: preregistrationDownload,
    bad: "status=bogus",
    field: "status",
  },
  {
    name: "test rides",
    page: testRidePage,
    pageErrors: filterErrors,
    path: "test-ride",
    api: testRideApi,
    download: testRideDownload,
    bad: "to=yesterday",
    field: "to",
  },
  {
    name: "draws",
    page: drawsPage,
    pageErrors: errors,
    path: "draws",
    api: drawsApi,
    download: drawsDownload,
    bad: "from=2026/13/01",
    field: "from",
  },
  {
    name: "referrers",
    page: referrerPage,
    pageErrors: filterErrors,
    path: "referrer",
    api: referrerApi,
    download: referrerDownload,
    bad: "from=2026-11-22&to=2026-11-21",
    field: "to",
  },
  {
    name: "counter grants",
    page: grantsPage,
    pageErrors: filterErrors,
    path: "preregistration/grants",
    api: grantsApi,
    download: grantsDownload,
    bad: "branch=abc",
    field: "branch",
  },
  {
    name: "schemes",
    page: schemePage,
    pageErrors: errors,
    path: "allocation",
    api: allocationApi,
    bad: "date=2026/02/30",
    field: "date",
  },
];

let cookie = "";
let token = "";

beforeAll(async () => {
  // Head office holding every permission (the audit trail asks for all of them).
  const staff = await staffWith(
    db
      .select()
      .from(schema.permissions)
      .all()
      .map((p) => p.name),
  );
  cookie = staff.cookie;
  token = staff.token;
});

const pageRequest = (path: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });

describe("the same bad filter gets the same message from a list's page, its API and its download", () => {
  for (const list of LISTS) {
    it(list.name, async () => {
      const pageAnswer = await call(list.page, pageRequest(`/admin/list?${list.bad}`));
      const shown = list.pageErrors(await pageAnswer.json()) as Record<string, string[]>;
      expect(shown[list.field]?.length).toBeGreaterThan(0);
      const message = shown[list.field][0];

      const apiAnswer = await call(list.api, req("GET", `/api/v1/${list.path}?${list.bad}`, { token }));
      expect(apiAnswer.status).toBe(422);
      expect((await apiAnswer.json()).errors[list.field]).toEqual([message]);

      if (list.download) {
        const file = await call(list.download, req("GET", `/api/v1/${list.path}/download?${list.bad}`, { token }));
        expect(file.status).toBe(422);
        expect((await file.json()).errors[list.field]).toEqual([message]);
      }
    });
  }

  it("the audit trail's download refuses what its page shows under From", async () => {
    const pageAnswer = await call(auditPage, pageRequest("/admin/audit?from=abc"));
    const message = ((await pageAnswer.json()).errors as Record<string, string[]>).from[0];
    const file = await call(auditDownload, req("GET", "/api/v1/audit/download?from=abc", { token }));
    expect(file.status).toBe(422);
    expect((await file.json()).errors.from).toEqual([message]);
  });
});
