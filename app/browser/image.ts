/**
 * Images over 720 x 1280 scaled down in the browser before upload (spec 000 §5), keeping
 * the aspect ratio, re-encoded as JPEG at quality 0.8. Smaller images and other files go
 * unchanged; the server bounds every image again.
 */
export const MAX_WIDTH = 720;
export const MAX_HEIGHT = 1280;
export const QUALITY = 0.8;
const SCALED_TYPES = /^image\/(jpeg|png|webp)$/;

/** The size an image of width x height is scaled to, or null when it already fits. */
export function scaledSize(width: number, height: number): { width: number; height: number } | null {
  const scale = Math.min(MAX_WIDTH / width, MAX_HEIGHT / height);
  if (!(scale < 1)) return null;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The file's name with a .jpg extension (the scaled copy is a JPEG). */
export const jpegName = (name: string) => `${name.replace(/\.[^.]*$/, "")}.jpg`;

/** Replaces the input's chosen image by its scaled copy, when the browser can and the image is too large. */
export function downscaleInput(input: HTMLInputElement): void {
  const file = input.files && input.files[0];
  if (!file || !SCALED_TYPES.test(file.type) || !window.createImageBitmap || !window.DataTransfer) return;
  createImageBitmap(file)
    .then((img) => {
      const size = scaledSize(img.width, img.height);
      if (!size) return;
      const canvas = document.createElement("canvas");
      canvas.width = size.width;
      canvas.height = size.height;
      const ctx = canvas.getContext("2d");
      if (!ctx) return;
      ctx.fillStyle = "#fff"; // a transparent PNG gets a white background, as JPEG has no alpha
      ctx.fillRect(0, 0, size.width, size.height);
      ctx.drawImage(img, 0, 0, size.width, size.height);
      canvas.toBlob(
        (blob) => {
          if (!blob) return;
          const dt = new DataTransfer();
          dt.items.add(new File([blob], jpegName(file.name), { type: "image/jpeg" }));
          input.files = dt.files;
        },
        "image/jpeg",
        QUALITY,
      );
    })
    .catch(() => {
      /* the original file is sent; the server scales it */
    });
}
