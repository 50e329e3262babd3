/**
 * The pre-registration list's columns, once: the screen (/admin/preregistration) and the file
 * (Preregistrations.xls) both read this list, in this order. Each column has its header and its
 * value as the file writes it; `screen` says whether the list on screen shows it too (for
 * everyone, or for head office only), and the screen may draw a value its own way (a date with
 * its Bikram Sambat twin) by the column's key. Client-safe: no database, no server module.
 */
import type { PreregistrationRow } from "./preregistration-admin.server";
import { label } from "~/utils/labels";
import { STATUS_LABELS } from "~/utils/preregistration-status";
import { displayDateTime } from "~/utils/time";

export type PreregistrationColumn = {
  key: string;
  header: string;
  /** The value as the file writes it (and the screen shows it, unless the screen draws it itself). */
  value: (row: PreregistrationRow) => string | number | null;
  /** On the screen too: for every user, or only for head office (who reaches every branch). */
  screen?: "all" | "headOffice";
  /** On the screen: a column of words that may wrap, or of codes that may break anywhere. */
  wrap?: boolean;
  code?: boolean;
};

export const PREREGISTRATION_COLUMNS: PreregistrationColumn[] = [
  { key: "slug", header: "Slug", value: (r) => r.slug },
  // The reference the customer reads aloud at the counter (db/reference.ts); the list's search takes it too.
  { key: "ref", header: "Reference", value: (r) => r.ref ?? "", screen: "all", code: true },
  { key: "name", header: "Name", value: (r) => r.name, screen: "all", wrap: true },
  { key: "address", header: "Address", value: (r) => r.address },
  { key: "phone", header: "Phone", value: (r) => r.phone, screen: "all" },
  { key: "email", header: "Email", value: (r) => r.email ?? "" },
  { key: "citizenship_no", header: "Citizenship No/PAN", value: (r) => r.citizenship_no, screen: "all" },
  { key: "model", header: "Model", value: (r) => r.bike_model?.title ?? "", screen: "all", wrap: true },
  { key: "source", header: "Source", value: (r) => label("source", r.source) },
  { key: "shared", header: "Shared", value: (r) => (r.shared ? "Yes" : "No") },
  { key: "status", header: "Status", value: (r) => STATUS_LABELS[r.status], screen: "all" },
  { key: "prize", header: "Prize", value: (r) => r.prize, screen: "all" },
  { key: "total_prize", header: "Total Prize", value: (r) => r.total_prize },
  { key: "branch", header: "Branch", value: (r) => r.branch?.title ?? "", screen: "headOffice", wrap: true },
  {
    key: "nearest",
    header: "Nearest Branch",
    value: (r) => r.nearest_branch?.title ?? "",
    screen: "headOffice",
    wrap: true,
  },
  { key: "city", header: "City", value: (r) => r.city, screen: "headOffice" },
  { key: "note", header: "Note", value: (r) => r.note ?? "" },
  { key: "created_at", header: "Registered", value: (r) => displayDateTime(r.created_at), screen: "all" },
];

/** The columns the list on screen shows: every user's, and head office's own. */
export function screenColumns(headOffice: boolean): PreregistrationColumn[] {
  return PREREGISTRATION_COLUMNS.filter((c) => c.screen === "all" || (c.screen === "headOffice" && headOffice));
}
