/**
 * The file picker of the catalogue forms (spec 001 §2.13): one image field
 * (a stored file's id under `name`).
 *
 * Without JavaScript the form itself carries the choice: a file input
 * (`${name}_upload`, stored by the form's action through the image rules) and
 * the recent images as radio thumbnails, "No image" first. The action answers
 * a validation error with the chosen (or just uploaded) id as the field's
 * value, so the choice survives it.
 *
 * With JavaScript the same field becomes a preview and a "Select Or Upload
 * File" button opening a modal with an uploads area and a grid of images.
 * Choosing an image confirms itself after 200 ms (spec 001 §9). Uploads go to
 * POST /api/v1/upload (type, files[]; the back-office session is accepted
 * there) while the rest of the form stays as typed; images over 720 x 1280 are
 * scaled down in the browser first at quality 0.8 (spec 000 §5), and the
 * server bounds them again.
 */
import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { FieldError, type Errors } from "./Field";
import { useHydrated } from "./useHydrated";
import { IMAGE_BOUND, IMAGE_TOO_LARGE, MAX_UPLOAD_BYTES } from "~/schemas/image";

/** A stored image as the picker shows it (see presentFile in app/models/file.server.ts). */
export type PickerImage = { id: number; url: string; filename: string };

export const UPLOAD_MESSAGE = "Something went wrong! Please check the file and try again.";
export const AUTO_CONFIRM_MS = 200;
const ACCEPT = "image/jpeg,image/png,image/webp";

type Props = {
  label: string;
  /** The form field holding the chosen file's id. */
  name: string;
  /** The picker category uploads are stored under (bike-model, video, logo). */
  type: string;
  /** The recent images of this category (and general), newest first. */
  files: PickerImage[];
  /** The chosen file's id ("" for none). */
  defaultValue?: string;
  errors?: Errors;
  hint?: string;
};

/** Images larger than 720 x 1280 scaled down (aspect kept) and re-encoded at quality 0.8; others sent unchanged. */
async function boundImage(file: File): Promise<File> {
  if (!/^image\/(jpeg|png|webp)$/.test(file.type) || typeof createImageBitmap !== "function") return file;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(IMAGE_BOUND.width / bitmap.width, IMAGE_BOUND.height / bitmap.height);
    if (scale >= 1) return file;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    const ctx = canvas.getContext("2d");
    if (!ctx) return file;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.8));
    return blob ? new File([blob], file.name.replace(/\.[^.]*$/, "") + ".jpg", { type: "image/jpeg" }) : file;
  } catch {
    return file;
  }
}

function NoScriptPicker({ name, files, value }: { name: string; files: PickerImage[]; value: string }) {
  return (
    <>
      <label className="picker-upload">
        <span>Upload a new image (JPEG, PNG or WebP, at most 10 MB)</span>
        <input type="file" name={`${name}_upload`} accept={ACCEPT} />
      </label>
      <p className="muted">Or choose one of the recent images:</p>
      <div className="picker-grid">
        <label className="none">
          <input type="radio" name={name} value="" defaultChecked={value === ""} />
          No image
        </label>
        {files.map((f) => (
          <label key={f.id}>
            <input type="radio" name={name} value={String(f.id)} defaultChecked={value === String(f.id)} />
            <img src={f.url} alt="" loading="lazy" width={120} height={75} />
            <span className="name">{f.filename}</span>
          </label>
        ))}
      </div>
    </>
  );
}

export function FilePicker({ label, name, type, files, defaultValue = "", errors, hint }: Props) {
  const hydrated = useHydrated();
  const id = `picker-${name}`;
  const invalid = Boolean(errors?.length);
  return (
    <fieldset
      className={`picker${invalid ? " invalid" : ""}`}
      aria-describedby={invalid ? `${id}-error` : undefined}
      aria-invalid={invalid || undefined}
    >
      <legend>{label}</legend>
      {hint ? <small className="muted">{hint}</small> : null}
      <FieldError id={`${id}-error`} errors={errors} />
      {errors && errors.length > 1 ? <span className="picker-reason">{errors[1]}</span> : null}
      {hydrated ? (
        <ScriptPicker name={name} type={type} files={files} defaultValue={defaultValue} label={label} />
      ) : (
        <NoScriptPicker name={name} files={files} value={defaultValue} />
      )}
    </fieldset>
  );
}

function ScriptPicker({
  name,
  type,
  files,
  defaultValue,
  label,
}: {
  name: string;
  type: string;
  files: PickerImage[];
  defaultValue: string;
  label: string;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [chosen, setChosen] = useState(defaultValue);
  const [selected, setSelected] = useState(defaultValue);
  const [uploaded, setUploaded] = useState<PickerImage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);

  const all = [...uploaded, ...files.filter((f) => !uploaded.some((u) => u.id === f.id))];
  const current = all.find((f) => String(f.id) === chosen);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  /** A single-select choice confirms itself after 200 ms. */
  const choose = (value: string) => {
    setSelected(value);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setChosen(value);
      dialog.current?.close();
    }, AUTO_CONFIRM_MS);
  };

  /** Uploads through POST /api/v1/upload (the session is accepted there); the new image is chosen. */
  async function upload(input: HTMLInputElement | null, list: FileList | null) {
    const picked = Array.from(list ?? []);
    if (!picked.length) return;
    setError(null);
    setBusy(true);
    try {
      const bounded = await Promise.all(picked.map(boundImage));
      if (bounded.some((f) => f.size > MAX_UPLOAD_BYTES)) {
        setError(IMAGE_TOO_LARGE);
        return;
      }
      const body = new FormData();
      body.set("type", type);
      for (const f of bounded) body.append("files[]", f, f.name);
      const res = await fetch("/api/v1/upload", {
        method: "POST",
        body,
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      const json = (await res.json().catch(() => null)) as {
        data?: PickerImage[];
        message?: string;
        errors?: Record<string, string[]>;
      } | null;
      if (!res.ok || !json?.data?.length) {
        const reason = json?.errors ? Object.values(json.errors)[0]?.find((m) => m !== UPLOAD_MESSAGE) : undefined;
        setError(reason ?? (json?.message && json.message !== UPLOAD_MESSAGE ? json.message : ""));
        return;
      }
      const fresh = json.data;
      setUploaded((prev) => [...fresh, ...prev.filter((p) => !fresh.some((f) => f.id === p.id))]);
      choose(String(fresh[0].id));
    } catch {
      setError("");
    } finally {
      setBusy(false);
      if (input) input.value = "";
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void upload(null, e.dataTransfer.files);
  };

  return (
    <>
      <input type="hidden" name={name} value={chosen} />
      <div className="picker-current">
        {current ? (
          <img src={current.url} alt={`${label}: ${current.filename}`} width={160} height={100} />
        ) : (
          <span className="no-image">No image chosen</span>
        )}
        <button
          type="button"
          onClick={() => {
            setSelected(chosen);
            dialog.current?.showModal();
          }}
        >
          Select Or Upload File
        </button>
        {chosen ? (
          <button type="button" className="link-button" onClick={() => setChosen("")}>
            Remove image
          </button>
        ) : null}
      </div>
      <dialog ref={dialog} className="picker-dialog" aria-labelledby={titleId}>
        <header>
          <h2 id={titleId}>Select Or Upload File</h2>
          <button type="button" onClick={() => dialog.current?.close()}>
            Close
          </button>
        </header>
        <div
          className={`picker-drop${over ? " over" : ""}`}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <label>
            <span>Upload images (JPEG, PNG or WebP, at most 10 MB), or drop them here</span>
            <br />
            <input
              type="file"
              multiple
              accept={ACCEPT}
              aria-label="Upload images"
              disabled={busy}
              onChange={(e) => void upload(e.currentTarget, e.currentTarget.files)}
            />
          </label>
          <p className="picker-status" role="status">
            {busy ? "Uploading…" : null}
          </p>
          {error !== null ? (
            <p className="picker-error" role="alert">
              {UPLOAD_MESSAGE}
              {error ? <span className="picker-reason">{error}</span> : null}
            </p>
          ) : null}
        </div>
        <div className="picker-grid" role="group" aria-label="Images">
          {all.length === 0 ? <p className="muted">No images yet: upload one above.</p> : null}
          {all.map((f) => (
            <button
              key={f.id}
              type="button"
              aria-pressed={selected === String(f.id)}
              aria-label={f.filename}
              onClick={() => choose(String(f.id))}
            >
              <img src={f.url} alt="" loading="lazy" width={120} height={75} />
              <span className="name">{f.filename}</span>
            </button>
          ))}
        </div>
      </dialog>
    </>
  );
}
