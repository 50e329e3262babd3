/**
 * The step before a broadcast leaves: who it reaches and what it costs
 * (recipients, numbers skipped, characters and SMS parts, total parts, the
 * gateway's credit), with Go Back and the final Send. The values travel in
 * hidden fields, so it works as a plain form.
 */
import { Form } from "@remix-run/react";
import { DetailList } from "~/components/DetailList";
import type { BroadcastPreview as Preview } from "~/models/broadcast.server";
import { BROADCAST_TYPE_LABELS } from "~/schemas/broadcast";
import { encodingLabel } from "~/utils/sms-parts";
import type { BroadcastValues, Choice } from "./BroadcastForm";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

export function BroadcastPreview({
  preview,
  values,
  branches,
  chosen,
  busy,
}: {
  preview: Preview;
  values: BroadcastValues;
  branches: { id: number; title: string }[];
  chosen: Choice[];
  busy: boolean;
}) {
  const { sms, credit } = preview;
  const reach =
    preview.type === "BRANCH"
      ? branches
          .filter((b) => values.branches.includes(String(b.id)))
          .map((b) => b.title)
          .join(", ")
      : preview.type === "REGISTRANTS"
        ? chosen.map((c) => c.label).join(", ")
        : preview.type === "MOBILE"
          ? "The numbers typed"
          : "Every registered customer and verified pre-registration";
  const enough = !credit.known || credit.value === null || credit.value >= preview.total_parts;
  const rows: [string, string][] = [
    ["Category", BROADCAST_TYPE_LABELS[preview.type]],
    ["Reaches", reach],
    [
      "Recipients",
      [
        plural(preview.recipients, "distinct number"),
        preview.skipped ? `${plural(preview.skipped, "stored number")} skipped as not valid mobiles` : null,
        preview.duplicates ? `${plural(preview.duplicates, "number")} typed twice, sent once` : null,
      ]
        .filter(Boolean)
        .join("; "),
    ],
    [
      "Each message",
      `${plural(sms.characters, "character")}, ${plural(sms.parts, "SMS part")} (${encodingLabel(sms.encoding)}, ${sms.perPart} per part)`,
    ],
    ["Total", plural(preview.total_parts, "SMS part")],
    [
      "Gateway credit",
      credit.known && credit.value !== null
        ? `${credit.value.toLocaleString("en")}${enough ? "" : " (less than this broadcast needs)"}`
        : `unknown${credit.reason ? ` (${credit.reason})` : ""}`,
    ],
  ];
  return (
    <Form method="post" className="card broadcast-preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Check before sending</h2>
      <DetailList rows={rows} named />
      <blockquote className="sms-text">{preview.text}</blockquote>
      <input type="hidden" name="type" value={values.type} />
      <input type="hidden" name="text" value={values.text} />
      <input type="hidden" name="mobiles" value={values.mobiles} />
      <input type="hidden" name="customer_q" value={values.customer_q} />
      {values.branches.map((b) => (
        <input key={`b${b}`} type="hidden" name="branches" value={b} />
      ))}
      {values.registrants.map((r) => (
        <input key={`r${r}`} type="hidden" name="registrants" value={r} />
      ))}
      <div className="actions">
        <button type="submit" name="intent" value="back" formNoValidate>
          Go Back
        </button>
        <button type="submit" name="intent" value="send" className="primary" disabled={busy || !preview.recipients}>
          {busy ? "Sending…" : `Send to ${plural(preview.recipients, "recipient")}`}
        </button>
      </div>
    </Form>
  );
}
