// Uploads through the picker's call (POST /api/v1/upload) and through a catalogue form without JavaScript:
// every image goes through the image rules (by content, 10 MB, 40 MP, fit 720 x 1280, upright, no metadata);
// a refused one answers the spec's message and stores nothing.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { count } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { UPLOAD_FAILED } from "~/models/file.server";
import { action as createModel } from "~/routes/admin.bike-model.create";
import { loader as serveFile } from "~/routes/files.$key";
import { action as upload } from "~/routes/api.v1.upload";
import { uploadsDir } from "~/utils/config.server";
import { call, req, staffWith } from "../route-helpers";
import { photo, smallPng } from "./images";

let token: string;
let cookie: string;

beforeAll(async () => {
  ({ token, cookie } = await staffWith(["create-bike-model", "update-bike-model", "read-bike-model"]));
});

const stored = () => ({
  rows: db.select({ n: count() }).from(schema.files).get()!.n,
  disk: fs.existsSync(uploadsDir()) ? (fs.readdirSync(uploadsDir(), { recursive: true }) as string[]).length : 0,
});

function files(list: { name: string; type: string; bytes: Uint8Array }[], type = "bike-model") {
  const form = new FormData();
  form.set("type", type);
  for (const f of list) form.append("files[]", new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
  return form;
}

const post = (form: FormData) => call(upload, req("POST", "/api/v1/upload", { token, form }));

/** A PNG whose header says 30000 x 30000 (900 megapixels); the data is a token few bytes. */
function hugePng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(30000, 0);
  ihdr.writeUInt32BE(30000, 4);
  ihdr[8] = 8; // bit depth; colour type 0 (grey)
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", Buffer.from([0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1])),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("POST /api/v1/upload", () => {
  it("a real photo is stored upright, bounded to 720 x 1280, as WebP without its metadata", async () => {
    // 2400 x 1800 landscape pixels tagged "rotate 90°": a 1800 x 2400 portrait photo.
    const bytes = await photo(2400, 1800, 6);
    expect((await sharp(bytes).metadata()).exif).toBeDefined();
    const res = await post(files([{ name: "IMG_2041.jpg", type: "image/jpeg", bytes }]));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.message).toBe("Image uploaded.");
    expect(body.data).toHaveLength(1);
    const [file] = body.data;
    expect(file).toMatchObject({ filename: "IMG_2041.jpg", type: "bike-model", width: 720, height: 960 });
    expect(file.url).toBe(`/files/${file.key}`);
    expect(file.thumbnail).toBe(file.url);
    expect(typeof file.id).toBe("number");

    const served = await call(serveFile, req("GET", file.url), { key: file.key });
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 720, height: 960 });
    expect(meta.width! <= 720 && meta.height! <= 1280).toBe(true);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    const row = db.select().from(schema.auditLog).all().at(-1)!;
    expect(row).toMatchObject({ action: "file.upload", entity_type: "file", entity_id: String(file.id) });
  });

  it("a small image keeps its size; several images in one call are all stored", async () => {
    const res = await post(
      files([
        { name: "a.png", type: "image/png", bytes: await smallPng() },
        {
          name: "b.webp",
          type: "image/webp",
          bytes: await sharp(await smallPng())
            .webp()
            .toBuffer(),
        },
      ]),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.message).toBe("Images uploaded.");
    expect(body.data.map((f: { width: number; height: number }) => [f.width, f.height])).toEqual([
      [320, 200],
      [320, 200],
    ]);
  });

  const refusals: [string, () => Promise<{ name: string; type: string; bytes: Uint8Array }>, string][] = [
    [
      "a PDF renamed .jpg",
      async () => ({
        name: "scan.jpg",
        type: "image/jpeg",
        bytes: Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"),
      }),
      "Only JPEG, PNG or WebP images are accepted.",
    ],
    [
      "an SVG",
      async () => ({
        name: "logo.svg",
        type: "image/svg+xml",
        bytes: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script><rect width="100" height="100"/></svg>',
        ),
      }),
      "Only JPEG, PNG or WebP images are accepted.",
    ],
    [
      "a 12 MB file",
      async () => {
        const bytes = Buffer.alloc(12_000_000, 7);
        bytes.set([0xff, 0xd8, 0xff, 0xe0]);
        return { name: "big.jpg", type: "image/jpeg", bytes };
      },
      "The image may not be larger than 10 MB.",
    ],
    [
      "a 30000 x 30000 PNG",
      async () => ({ name: "huge.png", type: "image/png", bytes: hugePng() }),
      "The image may not exceed 40 megapixels.",
    ],
  ];

  for (const [what, make, reason] of refusals) {
    it(`refuses ${what} with the spec's message and stores nothing`, async () => {
      const before = stored();
      const res = await post(files([await make()]));
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.message).toBe(UPLOAD_FAILED);
      expect(body.errors.files).toEqual([UPLOAD_FAILED, reason]);
      expect(stored()).toEqual(before);
    });
  }

  it("one refused image refuses the whole upload: nothing stored", async () => {
    const before = stored();
    const res = await post(
      files([
        { name: "good.png", type: "image/png", bytes: await smallPng() },
        { name: "bad.jpg", type: "image/jpeg", bytes: Buffer.from("%PDF-1.4 not an image") },
      ]),
    );
    expect(res.status).toBe(422);
    expect(stored()).toEqual(before);
  });

  it("a body over the upload limit is 413 with the spec's message, read no further", async () => {
    const before = stored();
    const res = await post(files([{ name: "big.jpg", type: "image/jpeg", bytes: new Uint8Array(13 * 1024 * 1024) }]));
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body.message).toBe(UPLOAD_FAILED);
    expect(body.errors.files[0]).toBe(UPLOAD_FAILED);
    expect(stored()).toEqual(before);
  });

  it("the browser's picker uploads with the back-office session; without one, JSON 401", async () => {
    const form = files([{ name: "s.png", type: "image/png", bytes: await smallPng() }]);
    const withSession = await call(upload, req("POST", "/api/v1/upload", { form, headers: { Cookie: cookie } }));
    expect(withSession.status).toBe(201);
    const anonymous = await call(upload, req("POST", "/api/v1/upload", { form: files([]) }));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "Unauthenticated." }); // the API's one 401
  });
});

describe("a catalogue form without JavaScript (its own file input)", () => {
  const submit = (form: FormData) =>
    call(createModel, req("POST", "/admin/bike-model/create", { form, headers: { Cookie: cookie } }));

  it("a refused image shows the spec's message under the picker and keeps what was typed; nothing stored", async () => {
    const before = { ...stored(), models: db.select({ n: count() }).from(schema.bikeModels).get()!.n };
    const form = new FormData();
    form.set("title", "Kept Title 150");
    form.set(
      "thumbnail_upload",
      new File([new Uint8Array(Buffer.from("%PDF-1.4 renamed"))], "brochure.jpg", { type: "image/jpeg" }),
    );
    const res = await submit(form);
    expect(res.status).toBe(422);
    const { result } = await res.json();
    expect(result.error.thumbnail).toEqual([UPLOAD_FAILED, "Only JPEG, PNG or WebP images are accepted."]);
    expect(result.initialValue.title).toBe("Kept Title 150");
    expect({ ...stored(), models: db.select({ n: count() }).from(schema.bikeModels).get()!.n }).toEqual(before);
  });

  it("an accepted image stays chosen when another field is refused", async () => {
    const form = new FormData();
    form.set("title", "");
    form.set("thumbnail_upload", new File([new Uint8Array(await smallPng())], "side.png", { type: "image/png" }));
    const res = await submit(form);
    expect(res.status).toBe(422);
    const { result } = await res.json();
    expect(result.error.title).toEqual(["Enter the model name."]);
    const id = Number(result.initialValue.thumbnail);
    expect(
      db
        .select()
        .from(schema.files)
        .all()
        .find((f) => f.id === id)?.filename,
    ).toBe("side.png");
    // Sent again with the chosen image (the radio) and a title: saved with it.
    const again = new FormData();
    again.set("title", "Chosen Image 125");
    again.set("thumbnail", String(id));
    const saved = await submit(again);
    expect(saved.status).toBe(302);
    const model = db
      .select()
      .from(schema.bikeModels)
      .all()
      .find((m) => m.title === "Chosen Image 125");
    expect(model?.thumbnail_id).toBe(id);
  });
});

describe("nothing is left on disk by a refused upload", () => {
  it("the uploads folder holds exactly the stored rows' files", () => {
    const rows = db.select().from(schema.files).all();
    for (const r of rows) expect(fs.existsSync(path.join(uploadsDir(), r.path)), r.path).toBe(true);
    expect(stored().disk - stored().rows).toBeLessThanOrEqual(
      new Set(rows.map((r) => path.dirname(r.path))).size, // the type folders themselves
    );
  });
});
