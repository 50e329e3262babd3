import { describe, expect, it } from "vitest";
import { jpegName, scaledSize } from "./image";

describe("image downscaling bound (720 x 1280, spec 000 §5)", () => {
  it("scales a large image down into the bound, keeping its aspect ratio", () => {
    expect(scaledSize(1440, 2560)).toEqual({ width: 720, height: 1280 });
    expect(scaledSize(4000, 3000)).toEqual({ width: 720, height: 540 });
    expect(scaledSize(1000, 4000)).toEqual({ width: 320, height: 1280 });
    expect(scaledSize(721, 100)).toEqual({ width: 720, height: 100 });
  });

  it("leaves an image that fits unchanged", () => {
    expect(scaledSize(720, 1280)).toBeNull();
    expect(scaledSize(300, 200)).toBeNull();
  });

  it("names the scaled copy .jpg", () => {
    expect(jpegName("proof.png")).toBe("proof.jpg");
    expect(jpegName("my.photo.webp")).toBe("my.photo.jpg");
    expect(jpegName("noext")).toBe("noext.jpg");
  });
});
