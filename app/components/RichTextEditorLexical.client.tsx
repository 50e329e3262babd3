/**
 * The Lexical editor of a settings text (loaded on demand by
 * RichTextEditor.tsx, in the browser only). It opens the HTML of its
 * textarea, offers bold, italic, headings, bulleted and numbered lists,
 * links, undo and redo, and writes the editor's HTML back into the textarea
 * on every change ($richTextHtml, the same writer the server stores with).
 */
import { $generateNodesFromDOM } from "@lexical/html";
import { $createLinkNode, $isLinkNode, $toggleLink } from "@lexical/link";
import { $insertList, $isListNode, $removeList, ListNode } from "@lexical/list";
import { LexicalComposer, type InitialConfigType } from "@lexical/react/LexicalComposer";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { ContentEditable } from "@lexical/react/LexicalContentEditable";
import { LexicalErrorBoundary } from "@lexical/react/LexicalErrorBoundary";
import { HistoryPlugin } from "@lexical/react/LexicalHistoryPlugin";
import { LinkPlugin } from "@lexical/react/LexicalLinkPlugin";
import { ListPlugin } from "@lexical/react/LexicalListPlugin";
import { RichTextPlugin } from "@lexical/react/LexicalRichTextPlugin";
import { $createHeadingNode, $isHeadingNode } from "@lexical/rich-text";
import { $setBlocksType } from "@lexical/selection";
import { $getNearestNodeOfType, mergeRegister } from "@lexical/utils";
import {
  $createParagraphNode,
  $createRangeSelectionFromDom,
  $createTextNode,
  $getRoot,
  $getSelection,
  $insertNodes,
  $isRangeSelection,
  $isTextNode,
  $setSelection,
  CAN_REDO_COMMAND,
  CAN_UNDO_COMMAND,
  COMMAND_PRIORITY_CRITICAL,
  COMMAND_PRIORITY_LOW,
  FORMAT_TEXT_COMMAND,
  KEY_DOWN_COMMAND,
  REDO_COMMAND,
  SELECTION_CHANGE_COMMAND,
  UNDO_COMMAND,
  type BaseSelection,
} from "lexical";
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { safeLinkUrl } from "~/utils/rich-text";
import { RICH_TEXT_NODES, $richTextHtml } from "~/utils/rich-text-lexical";

type Props = {
  textarea: RefObject<HTMLTextAreaElement | null>;
  labelId: string;
  describedBy?: string;
  invalid: boolean;
  lang: "en" | "ne";
  onReady: () => void;
};

const THEME = {
  paragraph: "rt-p",
  heading: { h2: "rt-h2", h3: "rt-h3", h4: "rt-h4" },
  list: { ul: "rt-ul", ol: "rt-ol", listitem: "rt-li", nested: { listitem: "rt-nested" } },
  link: "rt-link",
  text: { bold: "rt-bold", italic: "rt-italic", underline: "rt-underline", strikethrough: "rt-strike" },
};

export const LINK_MESSAGE = "Enter an address starting with https://, or a mailto: or tel: address.";

export default function RichTextEditorLexical({ textarea, labelId, describedBy, invalid, lang, onReady }: Props) {
  const initialConfig: InitialConfigType = {
    namespace: "settings-text",
    nodes: RICH_TEXT_NODES,
    theme: THEME,
    onError: (error) => {
      throw error;
    },
    // The textarea's HTML (or what was typed into it before the editor came) is the first content.
    editorState: (editor) => {
      const html = textarea.current?.value ?? "";
      const dom = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, "text/html");
      const nodes = $generateNodesFromDOM(editor, dom);
      $getRoot().clear().select();
      $insertNodes(nodes);
      if ($getRoot().getChildrenSize() === 0) $getRoot().append($createParagraphNode());
      // No selection yet: an editor that opens with one takes the focus and scrolls the page to itself.
      $setSelection(null);
    },
  };
  return (
    <LexicalComposer initialConfig={initialConfig}>
      <div className={`rt-editor${invalid ? " invalid" : ""}`} role="group" aria-labelledby={labelId}>
        <Toolbar />
        <RichTextPlugin
          contentEditable={
            <ContentEditable
              className="rt-content"
              ariaLabelledBy={labelId}
              ariaDescribedBy={describedBy}
              ariaInvalid={invalid || undefined}
              ariaMultiline
              lang={lang}
              spellCheck
              aria-placeholder="Write the text here…"
              placeholder={<div className="rt-placeholder">Write the text here…</div>}
            />
          }
          ErrorBoundary={LexicalErrorBoundary}
        />
        <HistoryPlugin />
        <ListPlugin />
        <LinkPlugin validateUrl={(url) => safeLinkUrl(url) !== null} />
        <WriteBack textarea={textarea} onReady={onReady} />
        <CaretFromPage />
      </div>
    </LexicalComposer>
  );
}

/** Writes the editor's HTML into the textarea on every change of content; says when it is ready. */
function WriteBack({ textarea, onReady }: { textarea: Props["textarea"]; onReady: () => void }) {
  const [editor] = useLexicalComposerContext();
  useEffect(() => {
    onReady();
    return editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves, tags }) => {
      if (tags.has("history-merge") || (dirtyElements.size === 0 && dirtyLeaves.size === 0)) return;
      const el = textarea.current;
      if (el) el.value = editorState.read($richTextHtml);
    });
  }, [editor, textarea, onReady]);
  return null;
}

/**
 * A key acts where the page shows the caret. Lexical learns of a caret moved by the browser (End, Ctrl+End,
 * arrows, a click) from the document's selectionchange event, which can arrive after the next key on a busy
 * machine; Enter would then split the block the caret has left. Before each key, the caret is read from the
 * page when it differs from the one the editor holds (a pending Bold is kept while the caret stays in its node).
 */
function CaretFromPage() {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () =>
      editor.registerCommand(
        KEY_DOWN_COMMAND,
        () => {
          const fresh = $createRangeSelectionFromDom(window.getSelection(), editor);
          const held = $getSelection();
          if (!fresh || ($isRangeSelection(held) && fresh.anchor.is(held.anchor) && fresh.focus.is(held.focus)))
            return false;
          const node = fresh.anchor.getNode();
          if ($isRangeSelection(held) && held.anchor.key === fresh.anchor.key) {
            fresh.format = held.format;
            fresh.style = held.style;
          } else if ($isTextNode(node)) {
            fresh.format = node.getFormat();
            fresh.style = node.getStyle();
          }
          $setSelection(fresh);
          return false;
        },
        COMMAND_PRIORITY_CRITICAL,
      ),
    [editor],
  );
  return null;
}

type Block = "paragraph" | "h2" | "h3" | "h4" | "bullet" | "number";

type ToolbarState = { bold: boolean; italic: boolean; block: Block; link: string | null };

const EMPTY: ToolbarState = { bold: false, italic: false, block: "paragraph", link: null };

function Toolbar() {
  const [editor] = useLexicalComposerContext();
  const [state, setState] = useState<ToolbarState>(EMPTY);
  const [canUndo, setCanUndo] = useState(false);
  const [canRedo, setCanRedo] = useState(false);
  const [linkForm, setLinkForm] = useState<{ url: string; error: boolean } | null>(null);
  const last = useRef<BaseSelection | null>(null);
  const linkInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    /** The toolbar follows the selection: after every change and every move of the caret. */
    const $follow = () => {
      const selection = $getSelection();
      if (!$isRangeSelection(selection)) return;
      last.current = selection.clone();
      const anchor = selection.anchor.getNode();
      const top = anchor.getKey() === "root" ? null : anchor.getTopLevelElement();
      let block: Block = "paragraph";
      if ($isListNode(top)) {
        const list = $getNearestNodeOfType(anchor, ListNode) ?? top;
        block = list.getListType() === "number" ? "number" : "bullet";
      } else if ($isHeadingNode(top)) {
        const tag = top.getTag();
        block = tag === "h3" || tag === "h4" ? tag : "h2";
      }
      const parent = anchor.getParent();
      const link = $isLinkNode(parent) ? parent.getURL() : $isLinkNode(anchor) ? anchor.getURL() : null;
      setState({ bold: selection.hasFormat("bold"), italic: selection.hasFormat("italic"), block, link });
    };
    return mergeRegister(
      editor.registerUpdateListener(({ editorState }) => editorState.read($follow)),
      editor.registerCommand(
        SELECTION_CHANGE_COMMAND,
        () => {
          $follow();
          return false;
        },
        COMMAND_PRIORITY_CRITICAL,
      ),
      editor.registerCommand(
        CAN_UNDO_COMMAND,
        (payload) => {
          setCanUndo(payload);
          return false;
        },
        COMMAND_PRIORITY_LOW,
      ),
      editor.registerCommand(
        CAN_REDO_COMMAND,
        (payload) => {
          setCanRedo(payload);
          return false;
        },
        COMMAND_PRIORITY_LOW,
      ),
    );
  }, [editor]);

  useEffect(() => {
    if (linkForm) linkInput.current?.focus();
  }, [linkForm]);

  /** Runs a change on the selection the editor had last (a select or the link field may hold the focus). */
  const change = (fn: () => void) => {
    editor.update(() => {
      if (!$isRangeSelection($getSelection()) && last.current) $setSelection(last.current.clone());
      fn();
    });
    editor.focus();
  };

  const setBlock = (block: Block) => {
    if (block === "bullet" || block === "number") {
      change(() => (state.block === block ? $removeList() : $insertList(block)));
      return;
    }
    change(() => {
      const selection = $getSelection();
      if (block === "paragraph") $setBlocksType(selection, () => $createParagraphNode());
      else $setBlocksType(selection, () => $createHeadingNode(block));
    });
  };

  const applyLink = () => {
    if (!linkForm) return;
    const href = safeLinkUrl(linkForm.url.trim());
    if (!href) {
      setLinkForm({ ...linkForm, error: true });
      return;
    }
    change(() => {
      const selection = $getSelection();
      if ($isRangeSelection(selection) && selection.isCollapsed() && !state.link) {
        const link = $createLinkNode(href);
        link.append($createTextNode(linkForm.url.trim()));
        selection.insertNodes([link]);
      } else {
        $toggleLink(href);
      }
    });
    setLinkForm(null);
  };

  const removeLink = () => {
    change(() => $toggleLink(null));
    setLinkForm(null);
  };

  const onLinkKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      applyLink();
    } else if (e.key === "Escape") {
      e.preventDefault();
      setLinkForm(null);
      editor.focus();
    }
  };

  const headingValue = state.block === "bullet" || state.block === "number" ? "paragraph" : state.block;

  return (
    <div className="rt-toolbar" role="toolbar" aria-label="Formatting">
      <select aria-label="Text style" value={headingValue} onChange={(e) => setBlock(e.currentTarget.value as Block)}>
        <option value="paragraph">Paragraph</option>
        <option value="h2">Heading</option>
        <option value="h3">Subheading</option>
        <option value="h4">Small heading</option>
      </select>
      <ToolButton label="Bold" pressed={state.bold} onPress={() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, "bold")}>
        <strong>B</strong>
      </ToolButton>
      <ToolButton
        label="Italic"
        pressed={state.italic}
        onPress={() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, "italic")}
      >
        <em>I</em>
      </ToolButton>
      <ToolButton label="Bulleted list" pressed={state.block === "bullet"} onPress={() => setBlock("bullet")}>
        • List
      </ToolButton>
      <ToolButton label="Numbered list" pressed={state.block === "number"} onPress={() => setBlock("number")}>
        {/* The "1." is drawn by CSS (.rt-numbered): the visible text is a word of the name "Numbered list". */}
        <span className="rt-numbered">List</span>
      </ToolButton>
      <ToolButton
        label="Link"
        pressed={Boolean(state.link)}
        onPress={() => setLinkForm({ url: state.link ?? "https://", error: false })}
      >
        Link
      </ToolButton>
      <ToolButton label="Undo" disabled={!canUndo} onPress={() => editor.dispatchCommand(UNDO_COMMAND, undefined)}>
        ↶
      </ToolButton>
      <ToolButton label="Redo" disabled={!canRedo} onPress={() => editor.dispatchCommand(REDO_COMMAND, undefined)}>
        ↷
      </ToolButton>
      {linkForm ? (
        <div className="rt-link-form">
          <input
            ref={linkInput}
            type="url"
            aria-label="Link address"
            value={linkForm.url}
            aria-invalid={linkForm.error || undefined}
            onChange={(e) => setLinkForm({ url: e.currentTarget.value, error: false })}
            onKeyDown={onLinkKey}
          />
          <button type="button" onClick={applyLink}>
            Apply
          </button>
          {state.link ? (
            <button type="button" onClick={removeLink}>
              Remove link
            </button>
          ) : null}
          <button
            type="button"
            onClick={() => {
              setLinkForm(null);
              editor.focus();
            }}
          >
            Cancel
          </button>
          {linkForm.error ? (
            <p className="field-error" role="alert">
              {LINK_MESSAGE}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function ToolButton({
  label,
  pressed,
  disabled,
  onPress,
  children,
}: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onPress: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="rt-button"
      aria-label={label}
      title={label}
      aria-pressed={pressed === undefined ? undefined : pressed}
      disabled={disabled}
      // Keep the editor's focus and selection: the format applies to what is selected.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onPress}
    >
      {children}
    </button>
  );
}
