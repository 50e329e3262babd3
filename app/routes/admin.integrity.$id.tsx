import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DateText } from "~/components/DateText";
import { DetailList } from "~/components/DetailList";
import { TextareaField } from "~/components/Field";
import { counterLinks } from "~/components/counter/styles";
import { decideFlag, evidenceHref, getFlag, isHolding } from "~/models/integrity-desk.server";
import { flagDecisionSchema } from "~/schemas/integrity";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { notFound } from "~/http/http.server";
import { oops, redirectWithToast, success } from "~/http/toast.server";
import { AUDIT_ACTION, label } from "~/utils/labels";

/** The permission this route needs (head office only) and its action's intents: head office's three decisions. */
export const handle = {
  permission: "review-integrity",
  intents: { clear: null, hold: null, void: null },
} satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Integrity flag" }];
export const links = counterLinks;

const idOf = (raw: string | undefined) => (/^\d{1,12}$/.test(raw ?? "") ? Number(raw) : null);

/** GET /admin/integrity/{id}: a flag, its evidence (each row linked), the prizes it holds and the decisions on it. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const id = idOf(params.id);
  const flag = id === null ? null : getFlag(user.scope, id);
  if (!flag) throw notFound();
  const rows = flag.evidence.rows.map((r) => ({ ...r, href: evidenceHref(r.kind, r.slug) }));
  return { flag, rows, holding: isHolding(flag.status) };
}

const DONE = {
  clear: "Flag cleared: its prizes go on.",
  hold: "Prizes held for review.",
  void: "Prize voided.",
} as const;

/** POST intent=clear|hold|void with a note: the decision (a missing note is shown under its field, 422). */
export async function action({ request, params }: ActionFunctionArgs) {
  const { intent, form, staff } = await requireIntent(request, handle);
  const id = idOf(params.id);
  if (id === null) throw notFound();
  const parsed = flagDecisionSchema.safeParse({ action: intent, note: form.get("note") });
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
    return data({ errors }, { status: 422 });
  }
  const result = decideFlag(staff, id, parsed.data);
  const here = `/admin/integrity/${id}`;
  return redirectWithToast(here, result.ok ? success(DONE[intent]) : oops(result.message));
}

export default function IntegrityFlag() {
  const { flag, rows, holding } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.errors;
  const ev = flag.evidence;
  return (
    <>
      <h1>
        {label("integrity_reason", flag.reason)} <span className="badge">{label("flag_status", flag.status)}</span>
      </h1>
      <p>
        <Link to="/admin/integrity">Back to Integrity</Link>
      </p>
      <section className="detail-block" aria-label="Evidence">
        <h2>Evidence</h2>
        <p>{ev.summary}</p>
        <DetailList
          rows={[
            [
              "Subject",
              flag.subject.href ? <Link to={flag.subject.href}>{flag.subject.label}</Link> : flag.subject.label,
            ],
            ["Branch", flag.branch?.title ?? "—"],
            ["Staff", flag.user ? `${flag.user.name} (${flag.user.email})` : "—"],
            ["Strength", String(Math.round(flag.strength))],
            ["Raised", <DateText key="raised" at={flag.raised_at} time />],
            ...ev.figures.map((f): [string, string] => [f.label, f.value]),
          ]}
        />
        <h3>Rows behind it</h3>
        <ul>
          {rows.map((r, i) => {
            const href = r.href;
            return (
              <li key={i}>
                {href ? <Link to={href}>{r.label}</Link> : r.label}
                {r.at ? (
                  <>
                    {" "}
                    · <DateText at={r.at} time />
                  </>
                ) : null}
                {r.detail ? ` · ${r.detail}` : null}
              </li>
            );
          })}
        </ul>
        {ev.more ? <p>And {ev.more} more.</p> : null}
      </section>
      <section className="detail-block" aria-label="Prizes it holds">
        <h2>Prizes it holds ({flag.entries_count})</h2>
        <ul>
          {flag.entries.map((e) => (
            <li key={e.slug}>
              <Link to={`/admin/preregistration/${e.slug}`}>{e.name}</Link> · {e.phone}
              {e.registration ? (
                <>
                  {" "}
                  · <Link to={`/admin/registration/${e.registration.slug}`}>registration</Link>
                </>
              ) : null}{" "}
              · {e.hold === "held" ? "under review" : e.hold === "voided" ? "prize voided" : "released"}
            </li>
          ))}
        </ul>
      </section>
      <section className="detail-block" aria-label="Decisions">
        <h2>Decisions</h2>
        {flag.decisions.length ? (
          <ul>
            {flag.decisions.map((d, i) => (
              <li key={i}>
                <DateText at={d.at} time /> · {AUDIT_ACTION[d.action as keyof typeof AUDIT_ACTION] ?? d.action} by{" "}
                {d.by ?? "—"}: {d.note}
              </li>
            ))}
          </ul>
        ) : (
          <p>None yet.</p>
        )}
        {flag.status !== "voided" ? (
          <Form method="post">
            <TextareaField label="Note (why)" name="note" rows={3} maxLength={1000} errors={errors?.note} />
            {errors?.action ? <p className="field-error">{errors.action[0]}</p> : null}
            <button type="submit" name="intent" value="clear" className="primary">
              Clear
            </button>{" "}
            {holding && flag.status !== "held" ? (
              <button type="submit" name="intent" value="hold">
                Hold for review
              </button>
            ) : null}{" "}
            <button type="submit" name="intent" value="void" className="danger">
              Void the prize
            </button>
          </Form>
        ) : (
          <p>The prize is voided: that decision stands. The draw&apos;s own record is unchanged.</p>
        )}
      </section>
    </>
  );
}
