/** Images for the upload tests: a camera-like photo and a small PNG. */
import sharp from "sharp";

/** A real-looking photo: a noisy gradient JPEG of the given size, with an EXIF orientation and camera metadata. */
export async function photo(width: number, height: number, orientation = 1): Promise<Buffer> {
  const noise = await sharp({
    create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation, exif: { IFD0: { Make: "TestCam", Model: "X100", Copyright: "Someone" } } })
    .toBuffer();
  return noise;
}

export const smallPng = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: "#2266aa" } })
    .png()
    .toBuffer();
