/**
 * The states of a pre-registration (spec 000 §4: unverified → verified →
 * purchased) and their labels. Client-safe: screens, filters and the models
 * read them from here; the list is checked against the drizzle column's enum.
 */
import type { Preregistration } from "@db/schema";
import { englishLabels } from "~/utils/labels";

export type PreregistrationStatus = Preregistration["status"];

export const PREREGISTRATION_STATUSES = [
  "unverified",
  "verified",
  "purchased",
] as const satisfies readonly PreregistrationStatus[];

// Every value of the column is listed: a new state in db/schema.ts fails to compile here.
type Unlisted = Exclude<PreregistrationStatus, (typeof PREREGISTRATION_STATUSES)[number]>;
const _allStatusesListed: [Unlisted] extends [never] ? true : never = true;

export const STATUS_LABELS: Record<PreregistrationStatus, string> = englishLabels("preregistration_status");
