import { useEffect, useState } from "react";

type Toast = { type: "success" | "error"; title: string; message: string };

/** A toast from the server; fades out after 10 seconds by CSS alone, and is removed by script when it runs. Keyed by its content, so a new toast starts afresh. */
export function Toasts({ toast }: { toast: Toast }) {
  const [shown, setShown] = useState(true);
  useEffect(() => {
    const t = setTimeout(() => setShown(false), 10_000);
    return () => clearTimeout(t);
  }, [toast]);
  if (!shown) return null;
  return (
    <div className={`toast toast-${toast.type}`} role={toast.type === "error" ? "alert" : "status"}>
      <strong>{toast.title}</strong>
      <span>{toast.message}</span>
    </div>
  );
}
