// The booking form renders from conform's lastResult alone: the values sent come back in their fields,
// the place lists narrow from them, and each error shows under its field (the district's under the city too).
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { BookingBranch } from "~/models/booking-cascade";
import { BookingForm } from "./BookingForm";

const branches: BookingBranch[] = [
  { id: 7, title: "Pokhara Lakeside", state: "Gandaki", district: "Kaski", city: "Pokhara" },
  { id: 8, title: "Pokhara Airport", state: "Gandaki", district: "Kaski", city: "Pokhara" },
  { id: 9, title: "Patan Motors", state: "Bagmati", district: "Lalitpur", city: "Patan" },
];

const render = (lastResult?: Parameters<typeof BookingForm>[0]["lastResult"]) =>
  renderToStaticMarkup(
    <BookingForm
      lang="en"
      lastResult={lastResult}
      defaultValue={{ type: "TESTRIDE", bike_model_id: "1" }}
      allBranches={branches}
      models={[{ id: 1, title: "Street 125" }]}
      formToken="token-from-the-loader-0001"
      captchaSiteKey={null}
    />,
  );

describe("BookingForm", () => {
  it("shows the values sent, narrows the places from them and selects the first branch", () => {
    const html = render({
      status: "error",
      initialValue: {
        type: "BOOKING",
        name: "Ram Thapa",
        state: "Gandaki",
        district: "Kaski",
        city: "Pokhara",
        form_token: "token-sent-with-the-form-01",
        utm_source: "radio",
      },
      error: { phone: ["Please enter your phone number."] },
    });
    expect(html).toContain('id="bk-name"');
    expect(html).toMatch(/<input[^>]*value="Ram Thapa"/);
    expect(html).toMatch(/<input id="bk-type-BOOKING"[^>]*checked=""/);
    expect(html).toContain('name="form_token" value="token-sent-with-the-form-01"');
    expect(html).toContain('name="utm_source" value="radio"');
    expect(html).toMatch(/<option value="7" selected="">Pokhara Lakeside<\/option>/);
    expect(html).toContain(">Pokhara Airport</option>");
    expect(html).not.toContain(">Patan Motors</option>");
    expect(html).toContain(
      '<p class="field-error" id="bk-phone-error" role="alert">Please enter your phone number.</p>',
    );
  });

  it("shows the district's error under the city, and a form-level message as a banner", () => {
    const html = render({
      status: "error",
      initialValue: {},
      error: { district: ["Please choose a district."], "": ["Too many attempts. Please try again in 5 minute(s)."] },
    });
    expect(html).toContain('id="bk-district-error" role="alert">Please choose a district.');
    expect(html).toContain('id="bk-city-error" role="alert">Please choose a district.');
    expect(html).toContain("Too many attempts. Please try again in 5 minute(s).");
    expect(html).toContain('name="form_token" value="token-from-the-loader-0001"');
  });
});
