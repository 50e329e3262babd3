/**
 * Pre-registration forms (form[data-prereg]): the typing filters of spec 000 §5 on
 * [data-filter] inputs, a chosen image checked at once (its type, and its weight: one over
 * 10 MB is scaled down when the browser can decode it, else refused, so it never travels),
 * images over 720 x 1280 scaled down before upload, the screenshot
 * required while "shared" is ticked, the server's refusal summary focused, and the
 * "Please Confirm Your Phone Number." dialog before the post (which then saves at once:
 * intent=save), opened only once the fields pass the checks the server makes first
 * (required fields, the phone's form, the patterns), shown under each field in the
 * server's words. The server stays the authority.
 */
import { firstTime, fresh } from "./dom";
import { applyFilter } from "./filters";
import { IMAGE_TYPES, MAX_UPLOAD_BYTES } from "~/schemas/image";
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
    if (t instanceof HTMLInputElement && t.matches("input[type=file][data-bound]")) void vetImage(t);
  });
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The server's message for a control's value, or "" when it passes. */
function problem(el: Control): string {
  const value = el.value.trim();
  const says = (name: string) => el.getAttribute(`data-msg-${name}`) || el.validationMessage || " ";
  if (el instanceof HTMLInputElement && el.type === "file")
    return el.required ? el.getAttribute("data-refused") || (el.files?.length ? "" : says("required")) : "";
  if (!value) return el.required ? says("required") : "";
  const pattern = el.getAttribute("data-pattern");
  if (pattern && !new RegExp(pattern).test(value)) return says("invalid");
  return "";
}

/** Shows (or clears) a control's message under it, as the server renders one. */
function mark(el: Control, message: string) {
  const box = el.closest(".field");
  if (!box) return;
  const id = `${el.id}-error`;
  let note = d.getElementById(id);
  if (message) {
    if (!note) {
      note = d.createElement("p");
      note.className = "field-error";
      note.id = id;
      note.setAttribute("role", "alert");
      box.appendChild(note);
    }
    note.textContent = message;
    box.classList.add("invalid");
    el.setAttribute("aria-invalid", "true");
    const ids = (el.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== id);
    el.setAttribute("aria-describedby", [id, ...ids].join(" "));
  } else if (note) {
    note.remove();
    box.classList.remove("invalid");
    el.removeAttribute("aria-invalid");
  }
}

/**
 * Checks the image chosen in a file input: a wrong type, or a file over the limit the browser
 * cannot make smaller, is refused under the field and taken out of the form; one over the
 * limit it can decode is replaced by a copy within 720 x 1280, and the hint says so.
 */
async function vetImage(input: HTMLInputElement) {
  const file = input.files && input.files[0];
  const hint = d.getElementById(`${input.id}-hint`);
  if (hint && !hint.hasAttribute("data-text")) hint.setAttribute("data-text", hint.textContent || "");
  if (hint) hint.textContent = hint.getAttribute("data-text");
  input.removeAttribute("data-refused");
  let refusal = "";
  if (file && !IMAGE_TYPES.includes(file.type)) refusal = input.getAttribute("data-msg-type") || " ";
  else if (file && file.size > MAX_UPLOAD_BYTES) {
    const copy = (await downscaleInput(input, true)) && input.files && input.files[0];
    if (copy && copy.size <= MAX_UPLOAD_BYTES) {
      if (hint) hint.textContent = input.getAttribute("data-msg-shrunk");
    } else refusal = input.getAttribute("data-msg-large") || " ";
  } else if (file) void downscaleInput(input);
  if (refusal) {
    input.value = "";
    input.setAttribute("data-refused", refusal);
  }
  mark(input, refusal);
}

/** Checks every field of the form; the first one refused, or null. */
function check(form: HTMLFormElement): Control | null {
  let first: Control | null = null;
  for (const el of Array.from(form.elements)) {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement))
      continue;
    if (el.disabled || (el instanceof HTMLInputElement && /^(hidden|checkbox|radio|submit)$/.test(el.type))) continue;
    if (el.closest(".hp") || !el.id) continue;
    const message = problem(el);
    mark(el, message);
    if (message && !first) first = el;
  }
  return first;
}

fresh<HTMLFormElement>("form[data-prereg]").forEach((form) => {
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
  const summary = form.querySelector<HTMLElement>("#form-errors");
  if (summary) summary.focus();
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
  // The checks below show the server's messages under the fields instead of the browser's bubbles.
  form.noValidate = true;
  let confirmed = false;
  form.addEventListener("submit", (e) => {
    if (confirmed) {
      e.preventDefault(); // a second tap while the first post is on its way
      return;
    }
    const submitter = (e as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter && submitter.value !== "review") return;
    e.preventDefault();
    const wrong = check(form);
    if (wrong) {
      wrong.focus();
      return;
    }
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
    const save = form.querySelector("button.primary[value=review]");
    if (save) {
      save.classList.add("is-loading");
      save.setAttribute("aria-busy", "true");
    }
    form.submit();
  });
  // Back to this page from the next one (bfcache): the form can be sent again.
  addEventListener("pageshow", () => {
    confirmed = false;
    form.classList.remove("busy");
    form.querySelectorAll(".is-loading").forEach((el) => el.classList.remove("is-loading"));
    const intent = form.querySelector("input[type=hidden][name=intent]");
    if (intent) intent.remove();
  });
});
