/** The verify form (form[data-verify]): "OTP is required" shown at once for an empty code, and the resend button counting down. */
import { fresh } from "./dom";

fresh<HTMLFormElement>("form[data-verify]").forEach((form) => {
  const code = form.elements.namedItem("code") as HTMLInputElement;
  form.addEventListener("submit", (e) => {
    const submitter = (e as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter && submitter.value === "resend") return;
    if (code.value.trim()) {
      // The draw waits for its beacon round inside the reveal's 5 s: they count from now.
      try {
        window.sessionStorage.setItem("thrill-reveal-start", String(Date.now()));
      } catch {
        // no session storage: the reveal plays whole
      }
      return;
    }
    e.preventDefault();
    const error = form.querySelector<HTMLElement>("[data-code-error]")!;
    error.textContent = error.getAttribute("data-required");
    error.hidden = false;
    code.setAttribute("aria-invalid", "true");
    code.focus();
  });

  const resend = form.querySelector<HTMLButtonElement>("[data-resend-at]");
  if (!resend) return;
  const at = Date.parse(resend.getAttribute("data-resend-at") || "");
  const wait = form.querySelector<HTMLElement>("[data-wait]");
  if (!(at > Date.now())) {
    if (wait) wait.hidden = true;
    return;
  }
  resend.disabled = true;
  const tick = () => {
    const seconds = Math.ceil((at - Date.now()) / 1000);
    if (seconds <= 0) {
      resend.disabled = false;
      if (wait) wait.hidden = true;
      return;
    }
    if (wait) {
      wait.hidden = false;
      // In the page's numerals (Devanagari on a Nepali page), as the server wrote the line.
      const set = wait.getAttribute("data-digit-set");
      const shown = set ? String(seconds).replace(/[0-9]/g, (d) => set.charAt(Number(d))) : String(seconds);
      wait.textContent = (wait.getAttribute("data-template") || "").replace("{seconds}", shown);
    }
    setTimeout(tick, 1000);
  };
  tick();
});
