/**
 * The slot-style prize reveal (spec 000 §4, §9): six digit cells that roll and
 * then settle on the amount padded to 6 positions, confetti and the
 * congratulation text with the total. `after` (the counter's prize breakdown,
 * which names the amount) is shown with the result, never while the digits roll.
 *
 * Without JavaScript the cells roll by CSS alone (about 5 s) and the text and
 * confetti appear when they stop. With JavaScript the spec's timing applies:
 * every cell flickers to a random digit each 50 ms for 5000 ms, then settles.
 * The draw waits for its beacon round (decision 19) inside those 5 s: the form
 * that asks for the draw marks the moment it was sent (markRevealStart), and
 * the reveal plays what is left of its time (at least a second).
 * In a hydrated page the component starts that itself; a page without its
 * JavaScript bundle adds <script>{DRAW_REVEAL_SCRIPT}</script> after it.
 * Styles: app/styles/draw-reveal.css (link it with DRAW_REVEAL_CSS).
 */
import { useEffect, useRef, type ReactNode } from "react";
import styles from "~/styles/draw-reveal.css?url";

export const DRAW_REVEAL_CSS = styles;
export const FLICKER_MS = 50;
export const REVEAL_MS = 5000;
export const CELLS = 6;

/** The amount as at least six digits ("5000" → "005000"). */
export const padDigits = (amount: number) => String(Math.max(0, Math.trunc(amount))).padStart(CELLS, "0");

/** The digits a reel shows by default; a page in another language gives its own ten (`digits`). */
const ASCII_DIGITS = "0123456789";
/** How many digits the CSS reel rolls through before it settles (four turns of ten). */
const STRIP_LENGTH = 40;
/** Where a cell that only pads the amount settles: past the strip's last digit, so it shows empty. */
const BLANK_STOP = 10;

/** Starts the JavaScript reveal on a rendered DrawReveal root (once). Self-contained: also serialised into DRAW_REVEAL_SCRIPT. */
export function runDrawReveal(root: HTMLElement | null): void {
  if (!root || root.getAttribute("data-started") || root.classList.contains("settled")) return;
  root.setAttribute("data-started", "1");
  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (reduce) {
    root.classList.add("done");
    return;
  }
  const cells = root.querySelectorAll(".draw-cell");
  const full = Number(root.getAttribute("data-reveal-ms")) || 5000;
  let left = full;
  try {
    const started = Number(window.sessionStorage.getItem("thrill-reveal-start"));
    window.sessionStorage.removeItem("thrill-reveal-start");
    if (started > 0 && started <= Date.now()) left = Math.max(1000, full - (Date.now() - started));
  } catch {
    // no session storage: the whole roll
  }
  const digits = root.getAttribute("data-digit-set") || "0123456789";
  root.classList.add("flicker");
  const timer = setInterval(
    function () {
      for (let i = 0; i < cells.length; i++)
        cells[i].setAttribute("data-f", digits.charAt(Math.floor(Math.random() * 10)));
    },
    Number(root.getAttribute("data-flicker-ms")) || 50,
  );
  setTimeout(function () {
    clearInterval(timer);
    root.classList.remove("flicker");
    root.classList.add("done");
  }, left);
}

/** Marks the moment a draw was asked for (a verify or draw form sent), so the reveal's 5 s count from it. */
export function markRevealStart(): void {
  try {
    window.sessionStorage.setItem("thrill-reveal-start", String(Date.now()));
  } catch {
    // no session storage: the reveal plays whole
  }
}

/** For pages without hydration: runs the reveal on every DrawReveal of the page. */
export const DRAW_REVEAL_SCRIPT = `(function(){var run=${runDrawReveal.toString()};document.querySelectorAll('[data-draw-reveal]').forEach(function(el){run(el)})})();`;

const CONFETTI_COLORS = ["#c8102e", "#f9a825", "#1f6feb", "#2e7d32", "#8e24aa", "#ff7043"];

export type DrawRevealProps = {
  amount: number;
  total: number;
  congratulation: string;
  /** Wording around the total; defaults to English. */
  totalLabel?: string;
  currency?: string;
  /** The result at rest, without the roll (a later visit of a draw already seen). */
  settled?: boolean;
  /** What tells the result beside the reveal, held back until the digits settle as the result is. */
  after?: ReactNode;
  /** The ten digits of the page's numerals (Devanagari on a Nepali page), for the reels and the figures. */
  digits?: string;
};

/** A text's ASCII digits written with `digits`. */
const written = (text: string, digits: string) =>
  digits === ASCII_DIGITS ? text : text.replace(/[0-9]/g, (d) => digits.charAt(Number(d)));

function grouped(n: number) {
  const digits = String(Math.trunc(Math.abs(n)));
  if (digits.length <= 3) return digits;
  const last3 = digits.slice(-3);
  let rest = digits.slice(0, -3);
  const groups: string[] = [];
  while (rest.length > 2) {
    groups.unshift(rest.slice(-2));
    rest = rest.slice(0, -2);
  }
  if (rest) groups.unshift(rest);
  return [...groups, last3].join(",");
}

export function DrawReveal({
  amount,
  total,
  congratulation,
  totalLabel = "Total prize",
  currency = "Rs.",
  settled = false,
  after,
  digits = ASCII_DIGITS,
}: DrawRevealProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => runDrawReveal(ref.current), []);
  const padded = padDigits(amount);
  // The zeros that only pad the amount to six cells roll like the others and settle empty: 10000 reads "10000".
  const pad = padded.length - String(Math.max(0, Math.trunc(amount))).length;
  // The strip the CSS roll runs through, in the page's digits (the stylesheet's own is ASCII).
  const strip =
    digits === ASCII_DIGITS
      ? undefined
      : `"${Array.from({ length: STRIP_LENGTH }, (_, i) => digits.charAt(i % 10)).join("\\A ")}"`;
  return (
    <div
      ref={ref}
      className={settled ? "draw-reveal settled" : "draw-reveal"}
      data-draw-reveal=""
      data-digits={padded}
      data-digit-set={digits === ASCII_DIGITS ? undefined : digits}
      data-flicker-ms={FLICKER_MS}
      data-reveal-ms={REVEAL_MS}
      style={strip ? ({ "--strip": strip } as React.CSSProperties) : undefined}
    >
      <div className="draw-cells" aria-hidden="true">
        {padded.split("").map((d, i) => (
          <span
            key={i}
            className="draw-cell"
            data-f={i < pad ? "" : digits.charAt(Number(d))}
            style={{ "--d": i < pad ? BLANK_STOP : Number(d), "--i": i } as React.CSSProperties}
          >
            <span className="draw-strip" />
          </span>
        ))}
      </div>
      <div className="draw-result" role="status">
        <p className="draw-amount">
          {currency} {written(grouped(amount), digits)}
        </p>
        <p className="draw-congrats">{congratulation}</p>
        <p className="draw-total">
          {totalLabel}:{" "}
          <strong>
            {currency} {written(grouped(total), digits)}
          </strong>
        </p>
      </div>
      {after ? <div className="draw-after">{after}</div> : null}
      <div className="confetti" aria-hidden="true">
        {Array.from({ length: 28 }, (_, i) => (
          <i
            key={i}
            style={
              {
                left: `${(i * 37) % 100}%`,
                background: CONFETTI_COLORS[i % CONFETTI_COLORS.length],
                "--delay": `${((i * 7) % 10) / 10}s`,
                "--drift": `${((i * 53) % 60) - 30}px`,
              } as React.CSSProperties
            }
          />
        ))}
      </div>
    </div>
  );
}
