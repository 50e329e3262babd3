/**
 * Pre-registration forms (form[data-prereg]): the typing filters of spec 000 §5 on
 * [data-filter] inputs, images over 720 x 1280 scaled down before upload, the screenshot
 * required while "shared" is ticked, and the "Please Confirm Your Phone Number." dialog
 * before the post (which then saves at once: intent=save).
 */
import { firstTime, fresh } from "./dom";
import { applyFilter } from "./filters";
import { downscaleInput } from "./image";

const d = document;

if (firstTime("prereg")) {
  d.addEventListener("input", (e) => {
    const t = e.target;
    const name = t instanceof HTMLInputElement ? t.getAttribute("data-filter") : null;
    if (!name) return;
    const input = t as HTMLInputElement;
    const value = applyFilter(name, input.value);
    if (value !== input.value) input.value = value;
  });
  d.addEventListener("change", (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement && t.matches("input[type=file][data-bound]")) downscaleInput(t);
  });
}

fresh<HTMLFormElement>("form[data-prereg]").forEach((form) => {
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
  const shared = field("shared");
  const screenshot = field("screenshot");
  const need = () => {
    if (screenshot) screenshot.required = !!(shared && shared.checked && !field("screenshot_ref"));
  };
  if (shared) {
    shared.addEventListener("change", need);
    need();
  }

  const dialog = form.querySelector<HTMLDialogElement>("dialog[data-confirm]");
  if (!dialog || !dialog.showModal) return;
  let confirmed = false;
  form.addEventListener("submit", (e) => {
    if (confirmed) {
      e.preventDefault(); // a second tap while the first post is on its way
      return;
    }
    const submitter = (e as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter && submitter.value !== "review") return;
    e.preventDefault();
    dialog.querySelector("[data-phone]")!.textContent = (field("phone") || { value: "" }).value;
    dialog.showModal();
  });
  dialog.querySelector("[data-back]")!.addEventListener("click", () => dialog.close());
  dialog.querySelector("[data-save]")!.addEventListener("click", () => {
    confirmed = true;
    const intent = d.createElement("input");
    intent.type = "hidden";
    intent.name = "intent";
    intent.value = "save";
    form.appendChild(intent);
    dialog.close();
    form.classList.add("busy");
    form.submit();
  });
  // Back to this page from the next one (bfcache): the form can be sent again.
  addEventListener("pageshow", () => {
    confirmed = false;
    form.classList.remove("busy");
    const intent = form.querySelector("input[type=hidden][name=intent]");
    if (intent) intent.remove();
  });
});
