import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field, FieldError, SelectField } from "./Field";

describe("field error display", () => {
  it("shows only the first server message under the field and marks it invalid", () => {
    const html = renderToStaticMarkup(
      <Field id="phone" label="Phone" name="phone" errors={["The phone is invalid.", "Second message"]} />,
    );
    expect(html).toContain('<p class="field-error" id="phone-error" role="alert">The phone is invalid.</p>');
    expect(html).not.toContain("Second message");
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="phone-error"');
  });

  it("shows nothing without errors", () => {
    expect(renderToStaticMarkup(<FieldError errors={undefined} />)).toBe("");
    expect(renderToStaticMarkup(<FieldError errors={[]} />)).toBe("");
    expect(renderToStaticMarkup(<Field label="Name" name="name" />)).not.toContain("field-error");
  });

  it("gives two fields of the same name different ids when none is given, and marks required ones", () => {
    const html = renderToStaticMarkup(
      <>
        <Field label="Name" name="name" required />
        <Field label="Name" name="name" />
      </>,
    );
    const ids = [...html.matchAll(/<input id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(2);
    expect(html).toContain('<label for="' + ids[0] + '">Name<span class="req" aria-hidden="true"> *</span></label>');
  });

  it("works for selects with a placeholder", () => {
    const html = renderToStaticMarkup(
      <SelectField
        label="Mode"
        name="payment_mode"
        placeholder="Choose"
        options={[{ value: "CASH", label: "Cash" }]}
        errors={["Pick one."]}
      />,
    );
    expect(html).toContain('<option value="">Choose</option>');
    expect(html).toContain("Pick one.");
  });
});
