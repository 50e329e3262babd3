/**
 * A broadcast's progress, as the history and the broadcast's page show it,
 * and the refresh that keeps its counts moving: with JavaScript the page
 * reloads its data every few seconds while a broadcast is on its way; without
 * it, a Refresh link.
 */
import { Link, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useHydrated } from "~/components/useHydrated";
import { englishLabels } from "~/utils/labels";
import type { BroadcastStatus, BroadcastView } from "~/models/broadcast-read.server";

export const STATUS_LABELS: Record<BroadcastStatus, string> = englishLabels("broadcast_status");

/** The recipients of a broadcast: its total, or the numbers stored so far while they are counted. */
export const recipientsText = (b: Pick<BroadcastView, "total" | "stored" | "counting">) =>
  b.counting ? `${b.stored.toLocaleString("en")} so far (counting)` : b.total.toLocaleString("en");

export function StatusBadge({ status }: { status: BroadcastStatus }) {
  return <span className={`badge broadcast-${status}`}>{STATUS_LABELS[status]}</span>;
}

/** Sent, failed and waiting out of the total (the messages stored so far while it is counted), as a bar and in words. */
export function Progress({ b }: { b: Pick<BroadcastView, "total" | "stored" | "sent" | "failed" | "queued"> }) {
  const of = Math.max(b.total, b.stored);
  const pct = (n: number) => (of ? Math.min(100, (n / of) * 100) : 0);
  return (
    <span className="broadcast-progress">
      <span className="bar" aria-hidden="true">
        <span className="sent" style={{ width: `${pct(b.sent)}%` }} />
        <span className="failed" style={{ width: `${pct(b.failed)}%` }} />
      </span>
      <span className="counts">
        {b.sent.toLocaleString("en")} sent · {b.failed.toLocaleString("en")} failed · {b.queued.toLocaleString("en")}{" "}
        queued
      </span>
    </span>
  );
}

/** Reloads the page's data every `ms` while `active` (JavaScript); a Refresh link without it. */
export function LiveRefresh({ active, ms = 2000 }: { active: boolean; ms?: number }) {
  const hydrated = useHydrated();
  const { revalidate, state } = useRevalidator();
  const location = useLocation();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    }, ms);
    return () => clearInterval(timer);
  }, [active, ms, revalidate, state]);
  if (!active) return null;
  return hydrated ? (
    <small className="live">Updating while it sends…</small>
  ) : (
    <Link to={`${location.pathname}${location.search}`} className="button" reloadDocument>
      Refresh
    </Link>
  );
}
