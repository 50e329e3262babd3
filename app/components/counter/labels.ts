/**
 * The counter screens' labels live in app/models/labels.ts (models and screens
 * share them); this module only passes them on for the screens that still
 * import them from here.
 */
export { PREREGISTRATION_STATUSES, STATUS_LABELS, formatChange, type PreregistrationStatus } from "~/models/labels";
