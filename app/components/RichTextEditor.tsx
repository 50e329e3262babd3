/**
 * A rich-text field of the settings screen (scheme, terms, privacy policy).
 *
 * Without JavaScript it is a textarea holding the text's HTML: head office
 * edits the HTML (or types plain text: blank lines make paragraphs) and the
 * server turns it into the stored HTML. With JavaScript the Lexical editor
 * (bold, italic, headings, bulleted and numbered lists, links, undo) loads on
 * demand, opens the same HTML and takes the textarea's place; every change
 * is written back into the textarea, so the form posts the field as before.
 * Lexical is in its own chunk (RichTextEditorLexical.client.tsx), fetched
 * only when a page shows this field; public pages never load it.
 */
import { lazy, Suspense, useCallback, useId, useRef, useState, type ReactNode } from "react";
import { FieldError, type Errors } from "./Field";
import { useHydrated } from "./useHydrated";

const LexicalEditor = lazy(() => import("./RichTextEditorLexical.client"));

type Props = {
  label: string;
  name: string;
  defaultValue: string;
  errors?: Errors;
  hint?: ReactNode;
  /** The language of the text (lang attribute, so Nepali is read and spell-checked as Nepali). */
  lang?: "en" | "ne";
  /** Read only: shown as a textarea, no editor. */
  readOnly?: boolean;
};

export function RichTextEditor({ label, name, defaultValue, errors, hint, lang = "en", readOnly = false }: Props) {
  const hydrated = useHydrated();
  const generated = useId().replace(/:/g, "");
  const id = `rt-${name}-${generated}`;
  const area = useRef<HTMLTextAreaElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const onReady = useCallback(() => setEnhanced(true), []);
  const invalid = Boolean(errors?.length);
  const describedBy = [invalid ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return (
    <div className={`field rich-field${invalid ? " invalid" : ""}`}>
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      <textarea
        ref={area}
        id={id}
        name={name}
        lang={lang}
        rows={10}
        defaultValue={defaultValue}
        readOnly={readOnly}
        hidden={enhanced}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy || undefined}
        spellCheck
      />
      {hydrated && !readOnly ? (
        <Suspense fallback={null}>
          <LexicalEditor
            textarea={area}
            labelId={`${id}-label`}
            describedBy={describedBy || undefined}
            invalid={invalid}
            lang={lang}
            onReady={onReady}
          />
        </Suspense>
      ) : null}
      {hint ? (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      ) : null}
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}
