/**
 * The foot of every back-office form: Cancel back to where the form was opened from, and Save,
 * which says "Saving…" and cannot be pressed twice while the post is on its way.
 */
import { Link, useNavigation } from "@remix-run/react";

export function SaveCancel({
  cancelTo,
  intent,
  disabled = false,
}: {
  cancelTo: string;
  /** The Save button's intent, for a form whose action reads one. */
  intent?: string;
  disabled?: boolean;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="actions">
      <Link to={cancelTo} className="button">
        Cancel
      </Link>
      <button
        type="submit"
        {...(intent ? { name: "intent", value: intent } : {})}
        className="primary"
        disabled={busy || disabled}
      >
        {busy ? "Saving…" : "Save"}
      </button>
    </div>
  );
}
