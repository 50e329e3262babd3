/**
 * The draw's share box ([data-share]): with the Web Share API, one button opens the
 * phone's own share sheet; without it (or without JavaScript) the plain links stay.
 */
import { fresh } from "./dom";

fresh<HTMLElement>("[data-share]").forEach((box) => {
  const button = box.querySelector<HTMLButtonElement>(".js-share");
  if (!button || !navigator.share) return;
  box.classList.add("can-share");
  button.addEventListener("click", () => {
    navigator
      .share({ text: box.getAttribute("data-text") || "", url: box.getAttribute("data-url") || location.origin })
      .catch(() => {
        // Cancelled, or refused: the links are the way then.
        box.classList.remove("can-share");
      });
  });
});
