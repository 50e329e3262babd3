import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { label } from "~/utils/labels";
import { Form, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/DataTable";
import { FilterRange, FilterSelect } from "~/components/TableFilters";
import { outboxPage, retryOutboxMessage, type OutboxMessage } from "~/models/sms-outbox.server";
import { outboxFiltersSchema, outboxRetrySchema, SMS_PURPOSES, SMS_STATUSES } from "~/schemas/sms";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { parseTableParams } from "~/utils/datatable.server";
import { parseQuery } from "~/http/query.server";
import { displayDateTime } from "~/utils/time";
import { oops, redirectWithToast, success } from "~/http/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "send-sms", intents: { retry: null } } as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "SMS Outbox" }];

type Row = OutboxMessage;

/** GET /admin/outbox (send-sms): every stored SMS with status, provider and reply; filters status, purpose, phone, and From/To (a day and hour). Codes masked unless the user may see codes. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const { value: filters, errors } = parseQuery(params, outboxFiltersSchema);
  return data({ ...outboxPage(user, parseTableParams(params), filters), errors });
}

/** POST intent=retry, id: a failed message without a code goes back to the queue (codes have their own resend). */
export async function action({ request }: ActionFunctionArgs) {
  const { form, staff: user } = await requireIntent(request, handle);
  const back = `/admin/outbox${new URL(request.url).search}`;
  const parsed = await parseValue({ kind: "form", form }, outboxRetrySchema);
  if (!parsed.ok) return redirectWithToast(back, oops(parsed.message));
  const result = retryOutboxMessage(user, parsed.value.id);
  return result.ok
    ? redirectWithToast(back, success("The message is queued to be sent again."))
    : redirectWithToast(back, oops(result.message));
}

export default function Outbox() {
  const table = useLoaderData<typeof loader>();
  return (
    <>
      <h1>SMS Outbox</h1>
      <DataTable<Row>
        table={table as { data: Row[]; recordsFiltered: number }}
        rowKey={(r) => r.id}
        searchLabel="Phone"
        filters={
          <>
            <FilterSelect
              name="status"
              label="Status"
              options={SMS_STATUSES.map((s) => ({ value: s, label: label("sms_status", s) }))}
            />
            <FilterSelect
              name="purpose"
              label="Purpose"
              options={SMS_PURPOSES.map((p) => ({ value: p, label: label("sms_purpose", p) }))}
            />
            <FilterRange errors={table.errors} />
          </>
        }
        columns={[
          { key: "created_at", header: "Date", render: (r) => displayDateTime(r.created_at) },
          { key: "to", header: "To" },
          { key: "purpose", header: "Purpose", render: (r) => label("sms_purpose", r.purpose) },
          {
            key: "status",
            header: "Status",
            render: (r) => <span className={`status status-${r.status}`}>{label("sms_status", r.status)}</span>,
          },
          { key: "provider", header: "Provider" },
          { key: "attempts", header: "Tries" },
          { key: "text", wrap: true, long: true, header: "Text" },
          {
            key: "reply",
            wrap: true,
            header: "Reply / error",
            render: (r) =>
              r.error ? (
                <span className="field-error">{r.status === "queued" ? `Will try again: ${r.error}` : r.error}</span>
              ) : (
                (r.provider_reply ?? "")
              ),
          },
          {
            key: "retry",
            header: "Actions",
            hideHeader: true,
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
