/**
 * Every public page: marks <html class="js">, submits [data-autosubmit] selects on
 * change, and opens a[data-modal] links as a <dialog>: the target page's .modal element,
 * fetched and inserted WITHOUT running its scripts (the hosting page's own scripts enhance it
 * on the "enhance" event, app/browser/dom.ts); GET forms inside reload the dialog; the address follows with
 * history; Escape, Close and Back close it. Without these the links are plain pages.
 * A form on its way or a dialog loading shows it (.is-loading, aria-busy) on a slow connection.
 */
import { ENHANCE_EVENT, firstTime } from "./dom";

const d = document;
d.documentElement.classList.add("js");

// reCAPTCHA's widget calls this when its answer expires (data-expired-callback on .g-recaptcha): the
// challenge is reset at once, so the visitor is not left with a dead answer. A new page of errors
// renders a new widget anyway (the forms post as plain pages).
(window as unknown as { captchaExpired: () => void }).captchaExpired = () =>
  (window as unknown as { grecaptcha?: { reset: () => void } }).grecaptcha?.reset();

if (firstTime("enhanced")) {
  d.addEventListener("change", (e) => {
    const t = e.target;
    if (!(t instanceof Element) || !t.hasAttribute("data-autosubmit")) return;
    const form = (t as HTMLSelectElement).form;
    if (!form) return;
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  });
  d.addEventListener("submit", (e) => {
    const form = e.target;
    const button = (e as SubmitEvent).submitter;
    // After the other listeners: a submit another script stopped is not on its way.
    setTimeout(() => {
      if (e.defaultPrevented || !(form instanceof HTMLFormElement)) return;
      loading(button || form, true);
    }, 0);
  });
  addEventListener("pageshow", () => d.querySelectorAll(".is-loading").forEach((el) => loading(el, false)));
  if ("HTMLDialogElement" in window && "fetch" in window && "DOMParser" in window) dialogs();
}

function loading(el: Element, on: boolean) {
  el.classList.toggle("is-loading", on);
  if (on) el.setAttribute("aria-busy", "true");
  else el.removeAttribute("aria-busy");
}

function dialogs() {
  let box: HTMLDialogElement | null = null;

  const dialog = () => {
    if (!box) {
      box = d.createElement("dialog");
      box.className = "js-dialog";
      box.addEventListener("close", () => {
        if (history.state && history.state.modal) history.back();
      });
      d.body.appendChild(box);
    }
    return box;
  };

  const show = (html: string, url: string, push: boolean) => {
    const modal = new DOMParser().parseFromString(html, "text/html").querySelector(".modal");
    if (!modal) {
      location.href = url;
      return;
    }
    const b = dialog();
    // The fetched page's scripts never run here (a fetched page holds no authority over this one):
    // they are dropped, and this page's own scripts set the new content up.
    modal.querySelectorAll("script").forEach((s) => s.remove());
    b.replaceChildren(d.importNode(modal, true));
    d.dispatchEvent(new Event(ENHANCE_EVENT));
    if (!b.open) b.showModal();
    history[push ? "pushState" : "replaceState"]({ modal: url }, "", url);
    const heading = b.querySelector("h1");
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
  };

  const load = (url: string, push: boolean, from?: Element) => {
    if (from) loading(from, true);
    fetch(url, { credentials: "same-origin" })
      .then((r) => {
        if (!r.ok) throw r;
        return r.text().then((text) => {
          if (from) loading(from, false);
          show(text, r.url, push);
        });
      })
      .catch(() => {
        location.href = url;
      });
  };

  d.addEventListener("click", (e) => {
    const a = e.target instanceof Element ? e.target.closest("a") : null;
    if (!a || e.button || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const inside = box !== null && box.contains(a);
    if (inside && a.hasAttribute("data-close")) {
      e.preventDefault();
      box!.close();
    } else if (!inside && a.hasAttribute("data-modal")) {
      e.preventDefault();
      load(a.href, true, a);
    }
  });

  d.addEventListener("submit", (e) => {
    const f = e.target;
    if (!box || !(f instanceof HTMLFormElement) || !box.contains(f) || f.method !== "get") return;
    e.preventDefault();
    const u = new URL(f.action, location.href);
    u.search = new URLSearchParams(new FormData(f) as unknown as Record<string, string>).toString();
    load(u.href, false);
  });

  addEventListener("popstate", (e) => {
    if (e.state && e.state.modal) load(e.state.modal, false);
    else if (box && box.open) box.close();
  });
}
