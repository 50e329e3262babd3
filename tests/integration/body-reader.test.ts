/**
 * The body reader (app/http/body.server.ts) called directly: which content types read as what, the
 * size limit and its message, a big JSON body parsed by a worker (whole, its long lists sent back in
 * slices) and its schema read a whole turn after its parse, an oversized
 * body read on to its end (up to STREAMED_DRAIN_BYTES) so the client sees the 413, each refusal's
 * message, and the helpers that lay an update over a stored record.
 */
import { readFile } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BODY_LIMITS,
  bodyText,
  currentValues,
  STREAMED_DRAIN_BYTES,
  formRequest,
  issuesToErrors,
  overlayCurrent,
  parseApiBody,
  parseValue,
  readApiBody,
  readBody,
  readForm,
  type Body,
} from "~/http/body.server";

const URL_ = "http://127.0.0.1/x";
const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request(URL_, { method: "POST", body, headers });
const json = (text: string, type = "application/json") => post(text, { "Content-Type": type });

/** A body sent in `chunks` pieces of `size` bytes, counting the pieces the reader took. */
function streamed(chunks: number, size: number, type = "application/json") {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  const request = new Request(URL_, {
    method: "POST",
    body: stream,
    headers: { "Content-Type": type },
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled };
}

const ALL_TYPES = "Send the body as application/json, application/x-www-form-urlencoded, multipart/form-data.";

describe("the content type", () => {
  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON",
    "application/json ; charset=utf-8",
    "application/vnd.api+json",
    "application/merge-patch+json",
  ])("%s reads as JSON", async (type) => {
    expect(await readBody(json('{"a":1}', type))).toEqual({ kind: "json", json: { a: 1 } });
  });

  it.each([
    "text/plain",
    "application/+json",
    "application/vnd+jsonx",
    "text/application/vnd+json",
    "application/vnd api+json",
  ])("%s is refused with 415, naming the types the call reads", async (type) => {
    expect(await readBody(json('{"a":1}', type))).toMatchObject({
      ok: false,
      code: "unsupported_type",
      message: ALL_TYPES,
    });
  });

  it("a type the call does not read is refused, naming only those it does", async () => {
    expect(await readBody(json('{"a":1}'), { accept: ["urlencoded", "multipart"] })).toMatchObject({
      code: "unsupported_type",
      message: "Send the body as application/x-www-form-urlencoded, multipart/form-data.",
    });
  });

  it("a body without a content type is refused; no body at all is missing, or nothing when the call allows it", async () => {
    expect(await readBody(post("a=1"))).toMatchObject({ code: "unsupported_type", message: ALL_TYPES });
    // A string body gets text/plain from fetch; bytes have no type.
    expect(await readBody(post(new TextEncoder().encode("a=1")))).toMatchObject({
      code: "unsupported_type",
      message: ALL_TYPES,
    });
    expect(await readBody(post(null))).toMatchObject({ code: "bad_request", message: "A request body is required." });
    expect(await readBody(json(""))).toMatchObject({ code: "bad_request", message: "A request body is required." });
    expect(await readBody(post(null), { optional: true })).toEqual({ kind: "none" });
  });
});

describe("the size limit", () => {
  it("lets a body of exactly the limit through and refuses one byte more, by what was read", async () => {
    const limit = 100;
    const exact = `{"a":"${"x".repeat(limit - 8)}"}`;
    expect(exact).toHaveLength(limit);
    expect(await readBody(json(exact), { limit })).toMatchObject({ kind: "json" });
    expect(await readBody(json(`${exact} `), { limit })).toMatchObject({
      code: "too_large",
      message: "The request body may not be larger than 0 KB.",
    });
  });

  it("refuses a declared length over the limit before reading, and believes no declared length under it", async () => {
    const declaredOver = new Request(URL_, {
      method: "POST",
      body: "{}",
      headers: { "Content-Type": "application/json", "Content-Length": String(BODY_LIMITS.form + 1) },
    });
    expect(await readBody(declaredOver)).toMatchObject({ code: "too_large" });
    const declaredAt = new Request(URL_, {
      method: "POST",
      body: "{}",
      headers: { "Content-Type": "application/json", "Content-Length": String(BODY_LIMITS.form) },
    });
    expect(await readBody(declaredAt)).toMatchObject({ kind: "json", json: {} });
  });

  it.each([
    [BODY_LIMITS.form, "64 KB"],
    [BODY_LIMITS.upload, "12 MB"],
    [1024 * 1024, "1 MB"],
    [1024 * 1024 - 1, "1024 KB"],
    [1536, "2 KB"],
    [1024 * 1024 * 2.5, "3 MB"],
  ])("a limit of %i bytes is said as %s", async (limit, said) => {
    const over = { "Content-Type": "application/json", "Content-Length": String(limit + 1) };
    expect(await readBody(new Request(URL_, { method: "POST", body: "{}", headers: over }), { limit })).toMatchObject({
      code: "too_large",
      message: `The request body may not be larger than ${said}.`,
      errors: { form: [expect.any(String)] },
    });
  });

  it("reads an oversized body on to its end, so the client has finished sending when the 413 goes out", async () => {
    const body = streamed(40, 64 * 1024); // 2.5 MB against a 64 KB limit
    expect(await readBody(body.request)).toMatchObject({ code: "too_large" });
    expect(body.pulled()).toBe(40);
  });

  it("stops reading a streamed oversized body past STREAMED_DRAIN_BYTES", async () => {
    const size = 1024 * 1024;
    const chunks = STREAMED_DRAIN_BYTES / size + 8;
    const body = streamed(chunks, size);
    expect(await readBody(body.request)).toMatchObject({ code: "too_large" });
    expect(body.pulled()).toBeGreaterThan(STREAMED_DRAIN_BYTES / size);
    expect(body.pulled()).toBeLessThan(chunks);
  });
});

describe("JSON", () => {
  it("that is not UTF-8, or not JSON, could not be read", async () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('{"a":"'), 0xff, ...new TextEncoder().encode('"}')]);
    for (const body of [latin1, new TextEncoder().encode("{a:1}")]) {
      expect(await readBody(post(body, { "Content-Type": "application/json" }))).toMatchObject({
        code: "bad_request",
        message: "The JSON body could not be read.",
        errors: { form: ["The JSON body could not be read."] },
      });
    }
  });

  it.each(["[1,2]", "null", "3", '"text"', "true"])("%s is not an object", async (text) => {
    expect(await readBody(json(text))).toMatchObject({
      code: "bad_request",
      message: "The JSON body must be an object.",
    });
  });
});

describe("a big JSON body", () => {
  it("lets timers run between its parse and its schema, even when read in an I/O callback", async () => {
    // 100,000 typed numbers (1.2 MB), as a broadcast sends them; read where a request's last chunk is read.
    const body = JSON.stringify({ mobiles: Array.from({ length: 100_000 }, (_, i) => String(9_600_000_000 + i)) });
    const order: string[] = [];
    const schema = z.object({ mobiles: z.preprocess((v) => (order.push("schema"), v), z.array(z.string())) });
    const parsed = await new Promise((resolve, reject) => {
      readFile(import.meta.filename, () => {
        setTimeout(() => order.push("timer"), 0);
        parseApiBody(json(body), schema, { limit: 2 * 1024 * 1024 }).then(resolve, reject);
      });
    });
    expect(parsed).toMatchObject({ mobiles: { length: 100_000 } });
    expect(order).toEqual(["timer", "schema"]);
  });

  it("is parsed off the event loop and comes back whole: long lists in their order, the rest as sent", async () => {
    // Lists around the slice size (5,000 items) and past it, objects in lists, and keys JSON allows.
    const value = {
      mobiles: Array.from({ length: 12_001 }, (_, i) => String(9_600_000_000 + i)),
      exact: Array.from({ length: 5000 }, (_, i) => i),
      one_more: Array.from({ length: 5001 }, (_, i) => ({ at: i, tags: [i % 3 ? "a" : "b"] })),
      short: [1, "two", null, true],
      nested: { deep: { list: Array.from({ length: 6000 }, (_, i) => i * 2) } },
      ["__proto__"]: ["kept as a plain key"],
      text: "नमस्ते ".repeat(20_000),
    };
    const body = JSON.stringify(value);
    expect(body.length).toBeGreaterThan(256 * 1024);
    const read = await readBody(json(body), { limit: 4 * 1024 * 1024 });
    expect(read).toEqual({ kind: "json", json: JSON.parse(body) });
  });

  it("that is not JSON, or not an object, is refused as a small one is", async () => {
    const big = "[" + "1,".repeat(200_000) + "1]";
    expect(await readBody(json(big), { limit: 4 * 1024 * 1024 })).toMatchObject({
      code: "bad_request",
      message: "The JSON body must be an object.",
    });
    const broken = '{"mobiles": [' + '"9841000001",'.repeat(30_000) + "]}";
    expect(await readBody(json(broken), { limit: 4 * 1024 * 1024 })).toMatchObject({
      code: "bad_request",
      message: "The JSON body could not be read.",
    });
  });
});

describe("forms", () => {
  it("urlencoded and multipart read as a form", async () => {
    const url = await readBody(post("a=1&b=x+y", { "Content-Type": "application/x-www-form-urlencoded" }));
    expect(url).toMatchObject({ kind: "form" });
    expect([...(url as { form: FormData }).form.entries()]).toEqual([
      ["a", "1"],
      ["b", "x y"],
    ]);
    const data = new FormData();
    data.append("name", "Ram");
    const multi = await readBody(new Request(URL_, { method: "POST", body: data }));
    expect((multi as { form: FormData }).form.get("name")).toBe("Ram");
  });

  it("a broken multipart body could not be read", async () => {
    const broken = post("--nope\r\nContent-Disposition: form-data\r\n", {
      "Content-Type": "multipart/form-data; boundary=other",
    });
    expect(await readBody(broken)).toMatchObject({
      code: "bad_request",
      message: "The multipart body could not be read.",
    });
  });

  it("readForm gives an empty form for no body, and throws the failure's page answer for JSON", async () => {
    expect([...(await readForm(post(null))).keys()]).toEqual([]);
    const form = await readForm(post("a=1", { "Content-Type": "application/x-www-form-urlencoded" }));
    expect(form.get("a")).toBe("1");
    const thrown = await readForm(json("{}")).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(415);
  });

  it("readForm reads a multipart form too", async () => {
    const data = new FormData();
    data.append("name", "Sita");
    expect((await readForm(new Request(URL_, { method: "POST", body: data }))).get("name")).toBe("Sita");
  });

  it("formRequest copies a form's text fields, not its files", async () => {
    const form = new FormData();
    form.append("a", "1");
    form.append("file", new File(["x"], "x.png", { type: "image/png" }));
    const copy = formRequest(new Request(URL_, { method: "POST", headers: { "Content-Length": "999" } }), form);
    expect(copy.headers.get("Content-Type")).toBe("application/x-www-form-urlencoded");
    expect(copy.headers.get("Content-Length")).toBeNull();
    expect(await copy.text()).toBe("a=1");
  });
});

describe("the API's readers", () => {
  it("readApiBody and parseApiBody throw the JSON refusal with its status", async () => {
    const refused = await readApiBody(json("[1]")).catch((e: unknown) => e);
    expect((refused as Response).status).toBe(400);
    expect(await (refused as Response).json()).toMatchObject({ message: "The JSON body must be an object." });
    expect(await readApiBody(json('{"a":1}'))).toEqual({ kind: "json", json: { a: 1 } });
    const schema = z.object({ n: z.number() });
    expect(await parseApiBody(json('{"n":2}'), schema)).toEqual({ n: 2 });
    const unreadable = await parseApiBody(json("[1]"), schema).catch((e: unknown) => e);
    expect((unreadable as Response).status).toBe(400);
    expect(await (unreadable as Response).json()).toMatchObject({ message: "The JSON body must be an object." });
    const invalid = await parseApiBody(json('{"n":"x"}'), schema).catch((e: unknown) => e);
    expect((invalid as Response).status).toBe(422);
    expect(await (invalid as Response).json()).toMatchObject({ errors: { n: [expect.any(String)] } });
  });
});

describe("errors", () => {
  it("a form's errors name their fields, and a whole-form error goes under form", async () => {
    const schema = z
      .object({ a: z.string({ error: "A is required." }), b: z.string().optional() })
      .refine((v) => v.a !== "same", { message: "Not that one." });
    const form = new FormData();
    form.append("b", "x");
    expect(await parseValue({ kind: "form", form }, schema)).toMatchObject({ errors: { a: ["A is required."] } });
    const whole = new FormData();
    whole.append("a", "same");
    const failed = await parseValue({ kind: "form", form: whole }, schema);
    expect(failed).toMatchObject({ errors: { form: ["Not that one."] } });
    expect(Object.keys((failed as { errors: object }).errors)).toEqual(["form"]);
  });

  it("no body is read as no values: a schema of optional fields passes, a required one is named", async () => {
    const schema = z.object({ a: z.string({ error: "A is required." }).optional() });
    expect(await parseValue({ kind: "none" }, schema)).toMatchObject({ ok: true, value: {} });
    expect(await parseValue({ kind: "none" }, z.object({ a: z.string({ error: "A is required." }) }))).toMatchObject({
      errors: { a: ["A is required."] },
    });
  });

  it("issuesToErrors keys a path by its dots and an empty path as form", () => {
    expect(
      issuesToErrors([
        { path: ["a", 0, "b"], message: "one" },
        { path: [], message: "two" },
        { path: ["a", 0, "b"], message: "three" },
      ]),
    ).toEqual({ "a.0.b": ["one", "three"], form: ["two"] });
  });
});

describe("bodyText", () => {
  const form = new FormData();
  form.append("s", "text");
  const body: Body = { kind: "json", json: { s: "text", n: 5, b: true, nan: NaN, inf: Infinity, o: {} } };
  it("reads a form's string, or a JSON string or finite number, as text; nothing else", () => {
    expect(bodyText({ kind: "form", form }, "s")).toBe("text");
    expect(bodyText({ kind: "form", form }, "missing")).toBeNull();
    expect(bodyText(body, "s")).toBe("text");
    expect(bodyText(body, "n")).toBe("5");
    for (const field of ["b", "nan", "inf", "o", "missing"]) expect(bodyText(body, field)).toBeNull();
    expect(bodyText({ kind: "none" }, "s")).toBeNull();
  });
});

describe("an update laid over the stored record", () => {
  const schema = z
    .object({ name: z.string(), thumbnail: z.string().optional(), ok: z.boolean().optional(), n: z.number() })
    .refine(() => true)
    .pipe(z.any());

  it("currentValues takes the schema's fields (through a refinement and a pipe) from the row, leaving empty ones out", () => {
    expect(
      currentValues(
        schema,
        { name: "Ram", thumbnail_id: "t.png", thumbnail: "wrong", ok: false, n: 0, other: "x" },
        { thumbnail: "thumbnail_id" },
      ),
    ).toEqual({ name: "Ram", thumbnail: "t.png", ok: false, n: 0 });
    expect(currentValues(schema, { name: "", thumbnail: null, n: undefined })).toEqual({});
    expect(() => currentValues(z.string(), {})).toThrow("An update schema must be an object schema.");
  });

  it("a form keeps the stored values it does not send: ticked boxes as on, lists as repeated fields", () => {
    const sent = new FormData();
    sent.append("name", "Sita");
    const laid = overlayCurrent(
      { kind: "form", form: sent },
      { name: "Ram", ok: true, off: false, tags: ["a", "b"], n: 3 },
    );
    expect(laid.kind).toBe("form");
    expect([...(laid as { form: FormData }).form.entries()]).toEqual([
      ["ok", "on"],
      ["tags", "a"],
      ["tags", "b"],
      ["n", "3"],
      ["name", "Sita"],
    ]);
  });

  it("JSON names the fields it changes, null clears one, and no body keeps the record", () => {
    expect(
      overlayCurrent({ kind: "json", json: { name: "Sita", thumbnail: null } }, { name: "Ram", n: 3, thumbnail: "t" }),
    ).toEqual({ kind: "json", json: { name: "Sita", n: 3, thumbnail: "" } });
    expect(overlayCurrent({ kind: "none" }, { name: "Ram" })).toEqual({ kind: "json", json: { name: "Ram" } });
  });
});
