import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { LiveRefresh, Progress, recipientsText, StatusBadge } from "~/components/broadcast/progress";
import { broadcastLinks } from "~/components/broadcast/styles";
import { FilterSelect } from "~/components/TableFilters";
import { DataTable } from "~/components/DataTable";
import { DetailList } from "~/components/DetailList";
import { retryFailedMessages } from "~/models/broadcast.server";
import { getBroadcast, listRecipients, type Recipient } from "~/models/broadcast-read.server";
import { BROADCAST_TYPE_LABELS, recipientFiltersSchema, RECIPIENT_STATUSES } from "~/schemas/broadcast";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseTableParams } from "~/utils/datatable.server";
import { notFound } from "~/http/http.server";
import { encodingLabel } from "~/utils/sms-parts";
import { displayDateTime } from "~/utils/time";
import { oops, redirectWithToast, success } from "~/http/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "send-sms", intents: { retry: null } } as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "SMS Broadcast" }];
export const links = broadcastLinks;

const idOf = (raw: string | undefined) => (/^\d{1,12}$/.test(raw ?? "") ? Number(raw) : null);

/** One broadcast (send-sms; branch users: their branch's): its counts and its recipients with their status. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const id = idOf(params.id);
  const broadcast = id === null ? null : getBroadcast(user.scope, id);
  if (!broadcast) throw notFound("Broadcast not found.");
  const query = new URL(request.url).searchParams;
  const filters = recipientFiltersSchema.parse({ status: query.get("status") });
  const recipients = listRecipients(user.scope, broadcast.id, parseTableParams(query), filters);
  if (!recipients.ok) throw notFound(recipients.message);
  return data({ broadcast, recipients: recipients.table });
}

/** intent=retry: every failed message of the broadcast goes back to the queue ("send the failed ones again"). */
export async function action({ request, params }: ActionFunctionArgs) {
  const { staff: user } = await requireIntent(request, handle);
  const here = `/admin/sms/${params.id}`;
  const id = idOf(params.id);
  if (id === null) throw notFound("Broadcast not found.");
  const result = await retryFailedMessages(user, id);
  if (!result.ok && result.code === "not_found") throw notFound(result.message);
  return redirectWithToast(
    here,
    result.ok
      ? success(`${result.requeued.toLocaleString("en")} failed message(s) are queued to be sent again.`)
      : oops(result.message),
  );
}

export default function Broadcast() {
  const { broadcast: b, recipients } = useLoaderData<typeof loader>();
  const rows: [string, ReactNode][] = [
    ["Sent by", b.created_by ? `${b.created_by.name} (${b.created_by.email})` : "—"],
    ["Date", displayDateTime(b.created_at)],
    ["Category", BROADCAST_TYPE_LABELS[b.type]],
    ["Send to", b.send_to],
    ...(b.type === "BRANCH" ? [["Branches", b.branches.map((x) => x.title).join(", ")] as [string, string]] : []),
    ...(b.type === "REGISTRANTS" ? [["Customers chosen", String(b.registrants)] as [string, string]] : []),
    ["Recipients", recipientsText(b)],
    ["Queued", b.queued.toLocaleString("en")],
    ["Sent", b.sent.toLocaleString("en")],
    ["Failed", b.failed.toLocaleString("en")],
    ["Skipped (not valid mobiles)", b.skipped.toLocaleString("en")],
    ...(b.duplicates ? [["Typed twice, sent once", String(b.duplicates)] as [string, string]] : []),
    [
      "SMS parts",
      `${b.parts} per message (${encodingLabel(b.encoding === "UCS-2" ? "UCS-2" : "GSM-7")}), ${b.total_parts.toLocaleString("en")} in all`,
    ],
    [
      "Status",
      <>
        <StatusBadge status={b.status} />
        {b.status === "preparing"
          ? ` ${b.stored.toLocaleString("en")}${b.counting ? "" : ` of ${b.total.toLocaleString("en")}`} stored`
          : ""}
      </>,
    ],
  ];
  return (
    <>
      <h1>SMS Broadcast</h1>
      <p>
        <Link to="/admin/sms">Back to SMS</Link>
      </p>
      <blockquote className="sms-text">{b.text}</blockquote>
      <Progress b={b} /> <LiveRefresh active={b.status !== "done"} />
      <DetailList rows={rows} className="details broadcast-details" named />
      {b.failed > 0 ? (
        <Form method="post" className="actions">
          <button type="submit" name="intent" value="retry" className="primary">
            Send the failed ones again
          </button>
        </Form>
      ) : null}
      <h2>Recipients</h2>
      <DataTable<Recipient>
        table={recipients}
        rowKey={(r) => r.id}
        searchLabel="Phone"
        filters={
          <FilterSelect
            name="status"
            label="Status"
            options={RECIPIENT_STATUSES.map((s) => ({ value: s, label: s }))}
          />
        }
        columns={[
          { key: "to", header: "Phone" },
          { key: "status", header: "Status", render: (r) => <span className={`status-${r.status}`}>{r.status}</span> },
          { key: "attempts", header: "Tries" },
          { key: "sent_at", header: "Sent", render: (r) => (r.sent_at ? displayDateTime(r.sent_at) : "") },
          {
            key: "error",
            header: "Error",
            render: (r) => (r.error ? (r.status === "queued" ? `Will try again: ${r.error}` : r.error) : ""),
          },
        ]}
      />
    </>
  );
}
