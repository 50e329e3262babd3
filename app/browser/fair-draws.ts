/**
 * The day page's check ([data-fair-check]): the day's published record (or a copy the visitor
 * saved earlier, so they need not trust what the server serves now) checked by the same rules as
 * scripts/verify-draws.mjs (scripts/fair-draws-core.mjs), in the browser. The beacon's signatures
 * need BLS code that loads only when the visitor asks for a check (/fair-draws/signatures.js).
 * Without JavaScript the box stays hidden and the page explains how to run a checker.
 */
import { verifyDay, type DayFile, type Signatures } from "../../scripts/fair-draws-core.mjs";
import { fresh } from "./dom";

type WithSignatures = Window & { fairDrawSignatures?: Signatures };

/** The BLS step, loaded once on the first check. */
function loadSignatures(src: string): Promise<Signatures> {
  const w = window as WithSignatures;
  if (w.fairDrawSignatures) return Promise.resolve(w.fairDrawSignatures);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => (w.fairDrawSignatures ? resolve(w.fairDrawSignatures) : reject(new Error(src)));
    script.onerror = () => reject(new Error(src));
    document.head.appendChild(script);
  });
}

fresh<HTMLElement>("[data-fair-check]").forEach((box) => {
  const button = box.querySelector<HTMLButtonElement>("button");
  const file = box.querySelector<HTMLInputElement>("input[type=file]");
  const out = box.querySelector<HTMLElement>("[role=status]");
  if (!button || !out || !window.crypto?.subtle) return;
  box.hidden = false;
  const check = async (read: () => Promise<DayFile>) => {
    button.disabled = true;
    out.textContent = box.dataset.checking ?? "";
    out.className = "";
    try {
      const [day, signatures] = await Promise.all([read(), loadSignatures(box.dataset.signatures ?? "")]);
      const result = await verifyDay(day, { signatures });
      out.textContent = result.ok
        ? (box.dataset.ok ?? "")
        : (box.dataset.bad ?? "").replace("{seq}", String(result.seq)).replace("{reason}", result.reason);
      out.className = result.ok ? "fair-ok" : "fair-bad";
    } catch (err) {
      out.textContent = String(err instanceof Error ? err.message : err);
      out.className = "fair-bad";
    } finally {
      button.disabled = false;
    }
  };
  const unwrap = (json: { data?: DayFile } & DayFile) => json.data ?? json;
  button.addEventListener("click", () =>
    check(async () =>
      unwrap(await (await fetch(box.dataset.url ?? "", { headers: { Accept: "application/json" } })).json()),
    ),
  );
  file?.addEventListener("change", () => {
    const chosen = file.files?.[0];
    if (chosen) void check(async () => unwrap(JSON.parse(await chosen.text())));
  });
});
