/**
 * Images over 720 x 1280 scaled down in the browser before upload (spec 000 §5), keeping
 * the aspect ratio, re-encoded as JPEG at quality 0.8. Smaller images go unchanged unless
 * they weigh more than the upload limit; the server bounds every image again.
 */
import { IMAGE_BOUND, IMAGE_TYPES } from "~/schemas/image";

export const QUALITY = 0.8;

/** The size an image of width x height is scaled to, or null when it already fits. */
export function scaledSize(width: number, height: number): { width: number; height: number } | null {
  const scale = Math.min(IMAGE_BOUND.width / width, IMAGE_BOUND.height / height);
  if (!(scale < 1)) return null;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The file's name with a .jpg extension (the scaled copy is a JPEG). */
export const jpegName = (name: string) => `${name.replace(/\.[^.]*$/, "")}.jpg`;

/**
 * Replaces the input's chosen image by a JPEG copy within 720 x 1280, when the browser can
 * decode it and it is too large (or `always`, for a file too heavy at its size). Resolves
 * true when the input now holds the copy, false when it keeps the original.
 */
export function downscaleInput(input: HTMLInputElement, always = false): Promise<boolean> {
  const file = input.files && input.files[0];
  if (!file || !IMAGE_TYPES.includes(file.type) || !window.createImageBitmap || !window.DataTransfer)
    return Promise.resolve(false);
  return createImageBitmap(file)
    .then(
      (img) =>
        new Promise<boolean>((resolve) => {
          const size = scaledSize(img.width, img.height) || (always ? { width: img.width, height: img.height } : null);
          const canvas = document.createElement("canvas");
          const ctx = size && canvas.getContext("2d");
          if (!size || !ctx) return resolve(false);
          canvas.width = size.width;
          canvas.height = size.height;
          ctx.fillStyle = "#fff"; // a transparent PNG gets a white background, as JPEG has no alpha
          ctx.fillRect(0, 0, size.width, size.height);
          ctx.drawImage(img, 0, 0, size.width, size.height);
          canvas.toBlob(
            (blob) => {
              if (!blob) return resolve(false);
              const dt = new DataTransfer();
              dt.items.add(new File([blob], jpegName(file.name), { type: "image/jpeg" }));
              input.files = dt.files;
              resolve(true);
            },
            "image/jpeg",
            QUALITY,
          );
        }),
    )
    .catch(() => false); // not decodable here: the original stays (and the server decides)
}
