import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useSearchParams } from "@remix-run/react";
import { and, count, eq, like, type SQL } from "drizzle-orm";
import { db, schema } from "@db/index";
import type { SmsMessage } from "@db/schema";
import { DataTable } from "~/components/DataTable";
import { sendSms, type SmsPurpose } from "~/models/sms.server";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { parseTableParams, runTable, type TableParams } from "~/utils/datatable.server";
import { canSeeCodes } from "~/utils/permissions";
import { normalizePhone } from "~/utils/phone";
import { displayDateTime } from "~/utils/time";
import { oops, redirectWithToast, success } from "~/utils/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "send-sms" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "SMS Outbox" }];

const { smsMessages } = schema;

const STATUSES = ["queued", "sent", "failed"] as const;
const PURPOSES = ["otp", "purchase-code", "notify", "password-reset", "broadcast"] as const;
/** Messages that carry a one-time code: their code is hidden from staff who may not see codes, and they are never re-sent from here. */
const CODE_PURPOSES = new Set(["otp", "purchase-code", "password-reset"]);

type Row = Omit<SmsMessage, "provider_reply"> & { provider_reply: string | null; retryable: boolean };

function outboxTable(params: TableParams, filters: { status?: string | null; purpose?: string | null }) {
  return runTable<SmsMessage>(params, {
    orderable: { id: smsMessages.id, created_at: smsMessages.created_at },
    defaultOrder: { column: "id", dir: "desc" },
    base: [],
    filters: [
      filters.status && (STATUSES as readonly string[]).includes(filters.status)
        ? eq(smsMessages.status, filters.status as (typeof STATUSES)[number])
        : undefined,
      filters.purpose ? eq(smsMessages.purpose, filters.purpose) : undefined,
    ],
    // By phone only: searching texts would find codes.
    search: (term): SQL | undefined => {
      const phone = normalizePhone(term);
      if (phone) return eq(smsMessages.to, phone);
      const digits = term.replace(/\D/g, "");
      return digits ? like(smsMessages.to, `${digits}%`) : eq(smsMessages.id, -1);
    },
    count: (where) => db.select({ n: count() }).from(smsMessages).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select()
        .from(smsMessages)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
  });
}

/** The back-office view of a message: codes masked unless the user may see codes (read-user or create-user). */
function present(m: SmsMessage, seesCodes: boolean): Row {
  const hide = m.purpose === "password-reset" || (CODE_PURPOSES.has(m.purpose) && !seesCodes);
  return {
    ...m,
    text: hide ? m.text.replace(/\b\d{4,8}\b/g, (d) => "•".repeat(d.length)) : m.text,
    provider_reply: m.provider_reply,
    retryable: m.status === "failed" && !CODE_PURPOSES.has(m.purpose),
  };
}

/** GET /admin/outbox (send-sms): every stored SMS with status, provider and reply; filters status, purpose and phone. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const seesCodes = canSeeCodes(user);
  const table = outboxTable(parseTableParams(params), { status: params.get("status"), purpose: params.get("purpose") });
  return data({ ...table, data: table.data.map((m) => present(m, seesCodes)) });
}

/** POST intent=retry, id: sends a failed message again (a new outbox row); code messages have their own resend. */
export async function action({ request }: ActionFunctionArgs) {
  await requireRouteAccess(request, handle);
  const form = await request.formData();
  const back = `/admin/outbox${new URL(request.url).search}`;
  const id = Number(form.get("id"));
  const message = Number.isInteger(id)
    ? db
        .select()
        .from(smsMessages)
        .where(and(eq(smsMessages.id, id)))
        .get()
    : undefined;
  if (form.get("intent") !== "retry" || !message) return redirectWithToast(back, oops("Message not found."));
  if (message.status !== "failed" || CODE_PURPOSES.has(message.purpose)) {
    return redirectWithToast(back, oops("Only a failed message without a code can be sent again."));
  }
  const sent = await sendSms({ to: message.to, text: message.text, purpose: message.purpose as SmsPurpose });
  return sent.status === "failed"
    ? redirectWithToast(back, oops(`The message failed again: ${sent.error ?? "unknown error"}`))
    : redirectWithToast(back, success("The message has been sent again."));
}

export default function Outbox() {
  const table = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <>
      <h1>SMS Outbox</h1>
      <DataTable<Row>
        rows={table.data as Row[]}
        rowKey={(r) => r.id}
        recordsFiltered={table.recordsFiltered}
        start={Number(params.get("start") ?? 0)}
        search={params.get("search") ?? ""}
        searchLabel="Phone"
        filters={
          <>
            <label>
              <span>Status</span>
              <select name="status" defaultValue={params.get("status") ?? ""}>
                <option value="">All</option>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>Purpose</span>
              <select name="purpose" defaultValue={params.get("purpose") ?? ""}>
                <option value="">All</option>
                {PURPOSES.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </label>
          </>
        }
        columns={[
          { key: "created_at", header: "Date", render: (r) => displayDateTime(r.created_at) },
          { key: "to", header: "To" },
          { key: "purpose", header: "Purpose" },
          {
            key: "status",
            header: "Status",
            render: (r) => <span className={`status status-${r.status}`}>{r.status}</span>,
          },
          { key: "provider", header: "Provider" },
          { key: "text", header: "Text" },
          {
            key: "reply",
            header: "Reply / error",
            render: (r) => (r.error ? <span className="field-error">{r.error}</span> : (r.provider_reply ?? "")),
          },
          {
            key: "retry",
            header: "",
            render: (r) =>
              r.retryable ? (
                <Form method="post">
                  <input type="hidden" name="id" value={r.id} />
                  <button type="submit" name="intent" value="retry">
                    Send again
                  </button>
                </Form>
              ) : null,
          },
        ]}
      />
    </>
  );
}
