/**
 * The Lexical side of the settings texts, shared by the back office's editor
 * (in the browser) and the server's conversion of any submitted HTML into the
 * stored HTML (app/utils/rich-text.server.ts, loaded on demand):
 *
 * - `RICH_TEXT_NODES`: the nodes both register: paragraphs, headings,
 *   bulleted and numbered lists, links, with bold, italic, underline and
 *   strikethrough text;
 * - `$richTextHtml()`: the one writer from an editor's content to HTML, so
 *   what the editor posts and what the server stores are written alike.
 */
import { $isLinkNode, LinkNode } from "@lexical/link";
import { $isListItemNode, $isListNode, ListItemNode, ListNode } from "@lexical/list";
import { $isHeadingNode, HeadingNode } from "@lexical/rich-text";
import {
  $getRoot,
  $isDecoratorNode,
  $isElementNode,
  $isLineBreakNode,
  $isTextNode,
  type ElementNode,
  type LexicalNode,
  type TextNode,
} from "lexical";
import { escapeHtml, headingTag, LINK_REL, opensInNewTab, safeLinkUrl } from "./rich-text";

/** The nodes of the settings editor, on the server and in the browser alike. */
export const RICH_TEXT_NODES = [HeadingNode, ListNode, ListItemNode, LinkNode];

const FORMATS = [
  ["bold", "strong"],
  ["italic", "em"],
  ["underline", "u"],
  ["strikethrough", "s"],
] as const;

function textHtml(node: TextNode): string {
  let html = escapeHtml(node.getTextContent());
  for (let i = FORMATS.length - 1; i >= 0; i--) {
    const [format, tag] = FORMATS[i];
    if (node.hasFormat(format)) html = `<${tag}>${html}</${tag}>`;
  }
  return html;
}

function linkOpen(href: string): string {
  const target = opensInNewTab(href) ? ' target="_blank"' : "";
  return `<a href="${escapeHtml(href)}" rel="${LINK_REL}"${target}>`;
}

/** The inline content of a block: text, line breaks and links; a trailing line break is left out. */
function inlineHtml(parent: ElementNode): string {
  return collapseSpaces(inlineChildren(parent.getChildren()));
}

function inlineChildren(children: LexicalNode[]): string {
  const parts = children.map(inlineNodeHtml).filter(Boolean);
  while (parts.length && parts[parts.length - 1] === "<br />") parts.pop();
  return parts.join("");
}

/** An empty format or link, or one format closed and opened again: neither changes what is shown. */
const NOTHING = /<(strong|em|u|s)><\/\1>|<a [^>]*><\/a>|<\/(strong|em|u|s)><\2>/g;

/**
 * White space as a browser shows it, and as Lexical reads it back: a run of
 * spaces is one space, none at the start or the end of a block or beside a
 * line break; and runs of the same format are one. So what is stored opens
 * in the editor and is written back the same.
 */
export function collapseSpaces(html: string): string {
  const parts = html.split(/(<[^>]*>)/);
  let spaced = true; // at the start of the block
  let lastText = -1;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (i % 2 === 1) {
      if (part === "<br />") {
        if (lastText >= 0) parts[lastText] = parts[lastText].replace(/ $/, "");
        spaced = true;
        lastText = -1;
      }
      continue;
    }
    let text = part.replace(/[ \t\n\r\f]+/g, " ");
    if (spaced) text = text.replace(/^ /, "");
    parts[i] = text;
    if (text) {
      spaced = text.endsWith(" ");
      lastText = i;
    }
  }
  if (lastText >= 0) parts[lastText] = parts[lastText].replace(/ $/, "");
  let out = parts.join("");
  for (let before = ""; before !== out;) {
    before = out;
    out = out.replace(NOTHING, "");
  }
  return out;
}

function inlineNodeHtml(node: LexicalNode): string {
  if ($isTextNode(node)) return textHtml(node);
  if ($isLineBreakNode(node)) return "<br />";
  if ($isLinkNode(node)) {
    const inner = inlineChildren(node.getChildren());
    const href = safeLinkUrl(node.getURL());
    return href && inner ? `${linkOpen(href)}${inner}</a>` : inner;
  }
  if ($isElementNode(node)) return inlineChildren(node.getChildren());
  return "";
}

function listHtml(list: ListNode): string {
  const tag = list.getListType() === "number" ? "ol" : "ul";
  const start = tag === "ol" && list.getStart() !== 1 ? ` start="${list.getStart()}"` : "";
  const items: string[] = [];
  for (const item of list.getChildren()) {
    if (!$isListItemNode(item)) continue;
    const children = item.getChildren();
    const nestedOnly = children.length > 0 && children.every($isListNode);
    const inline = collapseSpaces(inlineChildren(children.filter((c) => !$isListNode(c))));
    const html = inline + children.filter($isListNode).map(listHtml).join("");
    // Lexical keeps a nested list in an item of its own; in HTML it belongs to the item before it.
    if (nestedOnly && items.length) items[items.length - 1] += html;
    else items.push(html);
  }
  if (!items.length) return "";
  return `<${tag}${start}>${items.map((i) => `<li>${i}</li>`).join("")}</${tag}>`;
}

function blockHtml(node: LexicalNode): string {
  if ($isListNode(node)) return listHtml(node);
  if ($isHeadingNode(node)) {
    const tag = headingTag(node.getTag());
    return `<${tag}>${inlineHtml(node)}</${tag}>`;
  }
  if ($isDecoratorNode(node)) return "";
  if ($isElementNode(node)) return `<p>${inlineHtml(node) || "<br />"}</p>`;
  // Inline content straight under the root: a paragraph of its own.
  const inline = collapseSpaces(inlineNodeHtml(node));
  return inline ? `<p>${inline}</p>` : "";
}

const EMPTY_BLOCK = /^<(p|h[2-4])>(<br \/>)?<\/\1>$/;

/**
 * The HTML of the editor's content: call inside `editor.read()` or
 * `editorState.read()`. Empty blocks at the start and the end are left out,
 * so an empty editor writes "".
 */
export function $richTextHtml(): string {
  const blocks = $getRoot().getChildren().map(blockHtml).filter(Boolean);
  while (blocks.length && EMPTY_BLOCK.test(blocks[0])) blocks.shift();
  while (blocks.length && EMPTY_BLOCK.test(blocks[blocks.length - 1])) blocks.pop();
  return blocks.join("");
}
