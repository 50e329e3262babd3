import type { SubmissionResult } from "@conform-to/react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BroadcastForm, valuesOf, type BroadcastValues, type Choice } from "~/components/broadcast/BroadcastForm";
import { BroadcastPreview } from "~/components/broadcast/BroadcastPreview";
import { LiveRefresh, recipientsText, StatusBadge } from "~/components/broadcast/progress";
import { broadcastLinks } from "~/components/broadcast/styles";
import { DataTable } from "~/components/DataTable";
import { previewBroadcast, sendBroadcast, type BroadcastPreview as Preview } from "~/models/broadcast.server";
import {
  listBroadcasts,
  registrantChoices,
  searchBroadcastRegistrants,
  type BroadcastView,
} from "~/models/broadcast-read.server";
import { branchOptionsInScope } from "~/models/branch.server";
import { failureStatus, type Failure } from "~/utils/failure";
import { BROADCAST_TYPE_LABELS, broadcastSchema } from "~/schemas/broadcast";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { parseTableParams } from "~/utils/datatable.server";
import { submissionResult } from "~/http/http.server";
import { displayDateTime } from "~/utils/time";
import { onItsWay } from "~/schemas/broadcast";
import { redirectWithToast, success } from "~/http/toast.server";

/** The permission this route needs, and its form's steps: preview (the default), back, search a customer, send. */
export const handle = {
  permission: "send-sms",
  intents: { preview: null, back: null, search: null, send: null },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "SMS" }];
export const links = broadcastLinks;

/** A typed list of 100,000 numbers is about 1.2 MB. */
const FORM_LIMIT = 2 * 1024 * 1024;

/** GET /admin/sms (send-sms): the broadcast form and the history (branch users: their branch's). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const branches = branchOptionsInScope(user.scope);
  const table = listBroadcasts(user.scope, parseTableParams(params));
  return { branches, table, active: table.data.some((b) => b.status !== "done") };
}

type ActionData =
  | { step: "form"; result: SubmissionResult<string[]>; chosen: Choice[]; found: Choice[] }
  | { step: "preview"; values: BroadcastValues; preview: Preview; chosen: Choice[] };

/**
 * intent=preview (Send): the form's values checked, then the preview (who,
 * how many, parts, credit); intent=send (from the preview): sends and opens
 * the broadcast's page; intent=back: the form again with its values;
 * intent=search (no JavaScript): the customers found, with the form as typed.
 */
export async function action({ request }: ActionFunctionArgs) {
  const {
    intent,
    form,
    staff: user,
  } = await requireIntent(request, handle, { fallback: "preview", limit: FORM_LIMIT });
  const values = valuesOf(form);
  const chosen = registrantChoices(
    user.scope,
    values.registrants.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0),
  );
  /** The form again with what was sent (conform's result), and the failure's errors under their fields. */
  const again = (failure: Failure | null, found: Choice[] = []) =>
    data<ActionData>(
      { step: "form", result: submissionResult(values, failure), chosen, found },
      { status: failure ? failureStatus(failure) : 200 },
    );

  if (intent === "back") return again(null);
  if (intent === "search") return again(null, searchBroadcastRegistrants(user.scope, values.customer_q));

  form.delete("preview");
  const parsed = await parseValue({ kind: "form", form }, broadcastSchema);
  if (!parsed.ok) return again(parsed);
  if (intent === "send") {
    const sent = await sendBroadcast(user, parsed.value);
    if (!sent.ok) return again(sent);
    return redirectWithToast(`/admin/sms/${sent.broadcast.id}`, success(onItsWay(sent.broadcast.total)));
  }
  const previewed = await previewBroadcast(user, parsed.value);
  if (!previewed.ok) return again(previewed);
  return data<ActionData>({ step: "preview", values, preview: previewed.preview, chosen });
}

const shortText = (t: string) => (Array.from(t).length > 60 ? `${Array.from(t).slice(0, 60).join("")}…` : t);

export default function Sms() {
  const { branches, table, active } = useLoaderData<typeof loader>();
  const step = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <h1>SMS</h1>
      <section aria-label="New message" className="broadcast-new">
        {step?.step === "preview" ? (
          <BroadcastPreview
            preview={step.preview}
            values={step.values}
            branches={branches}
            chosen={step.chosen}
            busy={busy}
          />
        ) : (
          <BroadcastForm
            result={step?.step === "form" ? step.result : undefined}
            branches={branches}
            chosen={step?.step === "form" ? step.chosen : []}
            found={step?.step === "form" ? step.found : []}
            busy={busy}
          />
        )}
      </section>
      <section aria-labelledby="history-title" className="broadcast-history">
        <h2 id="history-title">Sent messages</h2>
        <LiveRefresh active={active && !step} />
        <DataTable<BroadcastView>
          table={table}
          rowKey={(b) => b.id}
          rowHref={(b) => `/admin/sms/${b.id}`}
          searchLabel="Text"
          columns={[
            { key: "created_at", header: "Date", render: (b) => displayDateTime(b.created_at) },
            { key: "created_by", header: "Sent by", render: (b) => b.created_by?.name ?? "—" },
            { key: "type", header: "Category", render: (b) => BROADCAST_TYPE_LABELS[b.type] },
            { key: "send_to", wrap: true, header: "Send to", render: (b) => b.send_to },
            { key: "text", wrap: true, long: true, header: "Message", render: (b) => shortText(b.text) },
            { key: "total", header: "Recipients", render: (b) => recipientsText(b) },
            { key: "queued", header: "Queued", render: (b) => b.queued.toLocaleString("en") },
            { key: "sent", header: "Sent", render: (b) => b.sent.toLocaleString("en") },
            { key: "failed", header: "Failed", render: (b) => b.failed.toLocaleString("en") },
            {
              key: "status",
              header: "Status",
              render: (b) => <StatusBadge status={b.status} />,
            },
          ]}
        />
      </section>
    </>
  );
}
