import { useEffect, useState } from "react";

type Toast = { type: "success" | "error"; title: string; message: string };

/** Spec 001 §9: toasts hide after 10 seconds. */
const TOAST_MS = 10_000;

/**
 * A toast from the server. It can be dismissed by its close control (a
 * details/summary pair, so it works without JavaScript too) and fades out
 * after 10 seconds by CSS alone; with JavaScript it is removed then. On a page
 * with a draw reveal it waits for the reveal to finish: "Coupon drawn" is
 * said once the digits have settled. Keyed by its content, so a new toast
 * starts afresh.
 */
export function Toasts({ toast, inline = false }: { toast: Toast; inline?: boolean }) {
  const [shown, setShown] = useState(true);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      timer = setTimeout(() => setShown(false), TOAST_MS);
    };
    const reveal = document.querySelector("[data-draw-reveal]");
    if (reveal && !reveal.classList.contains("done")) {
      const watch = new MutationObserver(() => {
        if (!reveal.classList.contains("done")) return;
        watch.disconnect();
        start();
      });
      watch.observe(reveal, { attributes: true, attributeFilter: ["class"] });
      return () => {
        watch.disconnect();
        clearTimeout(timer);
      };
    }
    start();
    return () => clearTimeout(timer);
  }, [toast]);
  if (!shown) return null;
  return (
    <details
      open
      className={`toast toast-${toast.type}${inline ? " toast-inline" : ""}`}
      onToggle={(e) => {
        if (!e.currentTarget.open) setShown(false);
      }}
    >
      <summary className="toast-close">
        <span aria-hidden="true">×</span>
        <span className="visually-hidden">Dismiss</span>
      </summary>
      <div className="toast-body" role={toast.type === "error" ? "alert" : "status"}>
        <strong>{toast.title}</strong>
        <span>{toast.message}</span>
      </div>
    </details>
  );
}
