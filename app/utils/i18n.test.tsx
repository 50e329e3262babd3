// The draw's congratulation adds up: what the draw won, what sharing added and the total, in English
// and Nepali, and the reveal shows the same total beside it.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DrawReveal } from "~/components/DrawReveal";
import { firstThrill, totalPrize } from "~/utils/prize-constants";
import { DIGITS, drawCongratulation, rupees, t, tm, tn, type Lang } from "./i18n";

const prizeOf = (amount: number, shared: boolean) => {
  const entry = { shared, is_verified: true, prize: amount };
  return { amount, first: firstThrill(entry), total: totalPrize(entry) };
};

describe("the draw's congratulation", () => {
  it("not shared: the cash discount won in the draw, which is the total", () => {
    expect(drawCongratulation("en", prizeOf(6000, false))).toBe(
      "Congratulations! You have won a cash discount of Rs. 6,000 in the draw.",
    );
    expect(drawCongratulation("ne", prizeOf(6000, false))).toBe("बधाई छ! तपाईंले ड्रमा रु. ६,००० नगद छुट जित्नुभयो।");
  });

  it("shared: the draw's amount, what sharing adds, and the total", () => {
    expect(drawCongratulation("en", prizeOf(6000, true))).toBe(
      "Congratulations! You have won a cash discount of Rs. 6,000 in the draw. " +
        "Sharing on social media adds Rs. 1,000, so your total prize is Rs. 7,000.",
    );
    expect(drawCongratulation("ne", prizeOf(6000, true))).toBe(
      "बधाई छ! तपाईंले ड्रमा रु. ६,००० नगद छुट जित्नुभयो। " +
        "सामाजिक सञ्जालमा सेयर गरेबापत थप रु. १,००० जोडिँदा तपाईंको कुल पुरस्कार रु. ७,००० हुन्छ।",
    );
  });

  it("the sentence's total is the total the reveal shows", () => {
    for (const lang of ["en", "ne"] as Lang[]) {
      for (const shared of [false, true]) {
        const prize = prizeOf(12000, shared);
        const html = renderToStaticMarkup(
          <DrawReveal
            amount={prize.amount}
            total={prize.total}
            congratulation={drawCongratulation(lang, prize)}
            totalLabel={t(lang, "draw.total")}
            currency={t(lang, "common.rs")}
            digits={DIGITS[lang]}
          />,
        );
        const total = rupees(lang, prize.total);
        expect(html).toContain(`<strong>${total}</strong>`);
        expect(html).toContain(total);
        // The sentence ends on the total shown (not shared: the amount won is the total).
        const sentence = drawCongratulation(lang, prize);
        expect(sentence).toContain(rupees(lang, 12000));
        expect(sentence).toContain(total);
        expect(sentence.includes(rupees(lang, 1000))).toBe(shared);
      }
    }
  });
});

describe("continue messages in Nepali", () => {
  it("translates the answers of the continue step", () => {
    expect(tm("ne", "If this phone number is pre-registered, a 6-digit code has been sent to it by SMS.")).toMatch(
      /SMS/,
    );
    expect(tm("ne", "Too many codes were sent to this phone. Please try again in 12 minute(s).")).toBe(
      "यो फोनमा धेरै कोड पठाइए। कृपया १२ मिनेटपछि फेरि प्रयास गर्नुहोस्।",
    );
    // A phone number is passed as text and stays as it is written.
    expect(t("ne", "form.continueOffer", { phone: "98XXXXXX12" })).toContain("98XXXXXX12");
  });
});

describe("one numeral system per page", () => {
  it("a Nepali page writes figures in Devanagari digits; an English one in ASCII", () => {
    expect(rupees("ne", 250000)).toBe("रु. २,५०,०००");
    expect(rupees("en", 250000)).toBe("Rs. 2,50,000");
    expect(tn("ne", "verify.triesLeft", 4)).toBe("यो कोडका लागि ४ प्रयास बाँकी छन्।");
    expect(tm("ne", "Please wait 42 seconds before asking for a new code.")).toBe(
      "नयाँ कोड माग्नुअघि कृपया ४२ सेकेन्ड पर्खनुहोस्।",
    );
  });

  it("the wait before a new code is said in the same words as the server's refusal", () => {
    expect(t("en", "verify.resendWait", { seconds: 42 })).toBe("Please wait 42 seconds before asking for a new code.");
  });
});
