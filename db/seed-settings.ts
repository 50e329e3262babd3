/**
 * Demo settings (development and tests): a generated logo, the landing video,
 * registration open with the spec's banner as the closed message, and the
 * scheme, terms and privacy policy texts in English and Nepali with the
 * formatting the editor offers (headings, bold, italic, bulleted and numbered
 * lists, links). Saved through updateSettings, as head office would, so the
 * texts are stored as the editor's HTML and each has its history row.
 */
import sharp from "sharp";
import { storeImage } from "~/models/file.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { updateSettings } from "~/models/settings.server";

export const DEMO_VIDEO_URL = "https://www.youtube.com/watch?v=thrill-scheme-demo";

const TEXTS = {
  scheme: `<h2>The Thrill Scheme</h2>
<p>Pre-register, verify your phone and win a <strong>cash discount of up to Rs. 50,000</strong> on your new bike. Share the campaign on social media for a further <em>Rs. 1,000</em>.</p>
<h3>Three thrills</h3>
<ol>
<li><strong>First thrill:</strong> Rs. 1,000 for sharing the campaign, with a screenshot of your post.</li>
<li><strong>Second thrill:</strong> a cash discount drawn when your phone is verified.</li>
<li><strong>Third thrill:</strong> a coupon drawn when you buy your bike at an authorised showroom.</li>
</ol>
<p>Find your nearest showroom on <a href="/showrooms">Nearby Showrooms</a>.</p>`,
  scheme_ne: `<h2>थ्रिल योजना</h2>
<p>पूर्व-दर्ता गर्नुहोस्, आफ्नो फोन प्रमाणित गर्नुहोस् र नयाँ बाइकमा <strong>रु. ५०,००० सम्मको नगद छुट</strong> जित्नुहोस्।</p>
<h3>तीन थ्रिल</h3>
<ol>
<li><strong>पहिलो थ्रिल:</strong> अभियान सेयर गरेबापत रु. १,०००।</li>
<li><strong>दोस्रो थ्रिल:</strong> फोन प्रमाणित हुँदा नगद छुटको ड्र।</li>
<li><strong>तेस्रो थ्रिल:</strong> अधिकृत शोरुमबाट बाइक किन्दा कुपनको ड्र।</li>
</ol>`,
  terms: `<h2>Terms and Conditions</h2>
<ol>
<li>One pre-registration per phone number.</li>
<li>Prizes are cash discounts on a purchase at an authorised showroom.</li>
<li>The company's decision is final.</li>
</ol>
<h3>Eligibility</h3>
<ul>
<li>Residents of Nepal aged <strong>18 or over</strong>.</li>
<li>A valid citizenship or PAN number is needed to <em>claim</em> a prize.</li>
</ul>
<p>Questions? Write to <a href="mailto:campaign@example.com">campaign@example.com</a>.</p>`,
  terms_ne: `<h2>नियम तथा सर्तहरू</h2>
<ol>
<li>एक फोन नम्बरमा एउटा मात्र पूर्व-दर्ता।</li>
<li>पुरस्कार अधिकृत शोरुममा खरिदमा नगद छुट हो।</li>
<li>कम्पनीको निर्णय अन्तिम हुनेछ।</li>
</ol>
<ul>
<li><strong>१८ वर्ष वा सोभन्दा माथिका</strong> नेपाली बासिन्दा।</li>
</ul>`,
  policy: `<h2>Privacy Policy</h2>
<p>We use your phone number to verify your entry and to contact you about the campaign. <strong>We do not sell your data.</strong></p>
<h3>What we keep</h3>
<ul>
<li>Your name, address, phone and citizenship or PAN number.</li>
<li>The screenshot you upload as proof of sharing.</li>
</ul>
<p>Read more on the brand's <a href="https://www.example.com/privacy">website</a>.</p>`,
  policy_ne: `<h2>गोपनीयता नीति</h2>
<p>हामी तपाईंको फोन नम्बर प्रविष्टि प्रमाणित गर्न र अभियानबारे सम्पर्क गर्न प्रयोग गर्छौं। <strong>हामी तपाईंको विवरण बेच्दैनौं।</strong></p>`,
};

async function logo() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="120"><rect width="480" height="120" rx="16" fill="#c8102e"/><text x="240" y="78" font-family="sans-serif" font-size="52" font-weight="700" fill="#fff" text-anchor="middle">THRILL</text></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return storeImage(png, { type: "logo", filename: "Thrill logo.png" });
}

export async function seedSettings() {
  const result = await updateSettings(SYSTEM_ACTOR, {
    ...TEXTS,
    logo: (await logo()).id,
    video: DEMO_VIDEO_URL,
    registration_open: true,
    closed_message: "",
    closed_message_ne: "",
  });
  if (!result.ok) throw new Error(`Demo settings refused: ${result.message}`);
}
