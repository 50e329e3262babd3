/**
 * The one rule for stored rich text (the settings texts: scheme, terms,
 * privacy policy, in English and Nepali), whatever the client sent.
 *
 * - `sanitizeRichText(html)`: the allow-list. Kept: p, br, h2–h4 (h1 becomes
 *   h2, h5 and h6 h4), strong and em (b and i become them), u, s, ul, ol
 *   (with a numeric start), li, and a with an href that passes `safeLinkUrl`
 *   (http, https, mailto, tel, a path on this site); every link gets
 *   rel="noopener noreferrer", and http(s) links target="_blank". Everything
 *   else goes: script, style, iframe, object, svg and the like with their
 *   content; any other tag is unwrapped (its text kept); every other
 *   attribute (on*, style, class, src …) is dropped; a link to javascript:,
 *   data: or anything else becomes plain text.
 * - `toStoredHtml(input)`: what is stored. Plain text (no tags, as typed in
 *   the textarea without JavaScript) becomes paragraphs; HTML is sanitised,
 *   read into the same Lexical nodes as the editor's and written back by the
 *   editor's own writer (app/utils/rich-text-lexical.ts), then sanitised once
 *   more. So the editor's output and the textarea's become the same HTML,
 *   which the editor opens unchanged next time.
 *
 * Pages sanitise again when they show a text (a value stored by an older
 * version, or written straight into the database, is held to the same rule).
 */
import type * as Headless from "@lexical/headless";
import type * as HeadlessDom from "@lexical/headless/dom";
import type * as LexicalHtml from "@lexical/html";
import type * as Lexical from "lexical";
import sanitizeHtml from "sanitize-html";
import type * as Shared from "./rich-text-lexical";
import { escapeHtml, headingTag, LINK_REL, LINK_SCHEMES, opensInNewTab, safeLinkUrl } from "./rich-text";

const heading = (tagName: string) => ({ tagName: headingTag(tagName), attribs: {} });

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "h2", "h3", "h4", "strong", "em", "u", "s", "ul", "ol", "li", "a"],
  allowedAttributes: { a: ["href", "rel", "target"], ol: ["start"] },
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Dropped with everything inside them.
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "select",
    "noscript",
    "template",
    "title",
    "iframe",
    "frame",
    "object",
    "embed",
    "svg",
    "math",
    "head",
  ],
  transformTags: {
    h1: heading,
    h5: heading,
    h6: heading,
    b: "strong",
    i: "em",
    strike: "s",
    del: "s",
    div: "p",
    a: (_tagName, attribs): sanitizeHtml.Tag => {
      const href = attribs.href ? safeLinkUrl(attribs.href) : null;
      // No usable address: the text stays, in an anchor that links nowhere (stored texts drop it).
      if (!href) return { tagName: "a", attribs: {} };
      const link: sanitizeHtml.Attributes = { href, rel: LINK_REL };
      if (opensInNewTab(href)) link.target = "_blank";
      return { tagName: "a", attribs: link };
    },
    ol: (tagName, attribs): sanitizeHtml.Tag => {
      const start = attribs.start ?? "";
      return { tagName, attribs: /^[1-9]\d{0,5}$/.test(start) && start !== "1" ? { start } : {} };
    },
  },
};

/** The last few results: pages sanitise the same stored texts on every request. */
const recent = new Map<string, string>();
const RECENT_MAX = 32;

/** The allow-list applied to any HTML. */
export function sanitizeRichText(html: string): string {
  const known = recent.get(html);
  if (known !== undefined) return known;
  const clean = sanitizeHtml(html, OPTIONS).trim();
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
  recent.set(html, clean);
  return clean;
}

/** Text without any tag: paragraphs at blank lines, a line break at each other new line. */
export function plainTextToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n\s*/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/[ \t]*\n[ \t]*/g, "<br />")}</p>`)
    .join("");
}

const looksLikeHtml = (text: string) => /<\/?[a-z][^>]*>|<br\s*\/?>/i.test(text);

/**
 * Any submitted text (the editor's HTML, the textarea's HTML or plain text)
 * as the HTML to store: "" for an empty one. Lexical and its DOM (happy-dom)
 * load on the first call only: a server that only answers pages never loads them.
 */
export async function toStoredHtml(input: string): Promise<string> {
  const html = looksLikeHtml(input) ? input : plainTextToHtml(input);
  const clean = sanitizeRichText(html);
  if (!clean) return "";
  const written = await throughEditor(clean);
  return sanitizeRichText(written);
}

type EditorKit = {
  dom: typeof HeadlessDom;
  headless: typeof Headless;
  html: typeof LexicalHtml;
  lexical: typeof Lexical;
  shared: typeof Shared;
};

let kit: Promise<EditorKit> | null = null;

/** Lexical and happy-dom, imported on the first save (type imports above load nothing). */
function editorKit(): Promise<EditorKit> {
  kit ??= Promise.all([
    import("@lexical/headless/dom"),
    import("@lexical/headless"),
    import("@lexical/html"),
    import("lexical"),
    import("./rich-text-lexical"),
  ]).then(([dom, headless, html, lexical, shared]) => ({ dom, headless, html, lexical, shared }));
  return kit;
}

/** Sanitised HTML read into the editor's nodes and written back by the editor's writer. */
async function throughEditor(clean: string): Promise<string> {
  const { dom: headlessDom, headless, html, lexical, shared } = await editorKit();
  const editor = headless.createHeadlessEditor({
    namespace: "settings-text",
    nodes: shared.RICH_TEXT_NODES,
    onError: (error) => {
      throw error;
    },
  });
  return headlessDom.withDOM((window) => {
    const dom = new window.DOMParser().parseFromString(`<!doctype html><body>${clean}</body>`, "text/html");
    editor.update(
      () => {
        const nodes = html.$generateNodesFromDOM(editor, dom as unknown as Document);
        lexical.$getRoot().clear().select();
        lexical.$insertNodes(nodes);
      },
      { discrete: true },
    );
    return editor.getEditorState().read(shared.$richTextHtml);
  });
}
