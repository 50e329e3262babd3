/**
 * The day page's "Check this day" ([data-fair-check]): fetches the day's published record and
 * runs the same checks as scripts/verify-draws.mjs (scripts/fair-draws-core.mjs) in the browser.
 * Without JavaScript the button stays hidden and the page explains how to run the checker.
 */
import { verifyDay } from "../../scripts/fair-draws-core.mjs";
import { fresh } from "./dom";

fresh<HTMLElement>("[data-fair-check]").forEach((box) => {
  const button = box.querySelector<HTMLButtonElement>("button");
  const out = box.querySelector<HTMLElement>("[role=status]");
  if (!button || !out || !window.crypto?.subtle) return;
  box.hidden = false;
  button.addEventListener("click", async () => {
    button.disabled = true;
    out.textContent = box.dataset.checking ?? "";
    try {
      const res = await fetch(box.dataset.url ?? "", { headers: { Accept: "application/json" } });
      const result = await verifyDay((await res.json()).data);
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
  });
});
