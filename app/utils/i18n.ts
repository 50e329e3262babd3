/**
 * Public-site text in English and Nepali (Devanagari). `t(lang, key, vars)`
 * gives a phrase with {placeholders} filled; `tm(lang, message)` translates a
 * message the server produced in English (field errors) when it is a known one,
 * and returns it unchanged otherwise. The spec's exact English messages are
 * kept verbatim in the English dictionary. Client-safe.
 */
import { formatRupees } from "./rupees";

export type Lang = "en" | "ne";

const en = {
  "site.title": "Share It. Win It.",
  "site.brand": "Thrill Scheme",
  "site.home": "Home",
  "lang.label": "Language",
  "lang.en": "English",
  "lang.ne": "नेपाली",

  "nav.showrooms": "Nearby Showrooms",
  "nav.winners": "Winners",
  "nav.scheme": "Scheme Details",
  "nav.terms": "Terms and Conditions",
  "nav.privacy": "Privacy Policy",
  "nav.book": "Book a Ride",
  "nav.preregister": "Pre-Register",
  "nav.video": "Watch the Video",

  "common.close": "Close",
  "common.back": "Back",
  "common.submit": "Submit",
  "common.cancel": "Cancel",
  "common.choose": "Choose…",
  "common.all": "All",
  "common.rs": "Rs.",
  "common.notAvailable": "This text is not available yet.",
  "common.followUs": "Follow us",
  "common.captcha": "Captcha",
  "common.honeypot": "Leave this field empty",
  "common.loading": "Loading…",
  "common.required": "Fields marked * are required.",

  "landing.tagline": "Pre-register, verify your phone and win a cash discount on your new bike.",
  "landing.bonus": "Share the campaign on social media for a further Rs. 1,000.",
  "landing.open": "Registration Open",
  "landing.closed": "Registration Closed",
  "landing.closedBanner": "Registration is closed. Please contact the admin for more information.",
  "landing.formTitle": "Pre-Registration",
  "landing.more": "More",
  "landing.prize": "Win up to {amount}",
  "landing.prizeNote": "as a cash discount on your new bike, drawn the moment you verify your phone.",
  "landing.closedLead":
    "New pre-registrations are not taken now. You can still book a ride, find a showroom and watch the winners.",
  "landing.how": "How it works",
  "landing.step1": "Pre-register with your phone number.",
  "landing.step2": "Enter the code we send you by SMS.",
  "landing.step3": "See your prize at once, and claim it at a showroom when you buy.",
  "landing.bikes": "Our bikes",
  "landing.allBikes": "See all {count} bikes",
  "landing.info": "Information",

  "form.name": "Full Name",
  "form.address": "Address",
  "form.email": "Email",
  "form.phone": "Phone Number",
  "form.citizenship": "Citizenship No/PAN",
  "form.bikeModel": "Bike Model",
  "form.source": "Source of Information",
  "form.note": "Note",
  "form.nearest": "Nearest Showroom",
  "form.shared": "I have shared this campaign on social media",
  "form.screenshot": "Screenshot of your post",
  "form.screenshotHint": "JPEG, PNG or WebP, at most 10 MB.",
  "form.screenshotShrunk": "This image is over 10 MB: a smaller copy (at most 720 x 1280) will be sent.",
  "form.screenshotKept": "Your screenshot is attached. Choose another file to replace it.",
  "form.save": "Save",
  "form.saveNotify": "Save and Notify",
  "form.continueOffer": "We can send a code to {phone} to continue.",
  "form.sendCode": "Send code",
  "form.errorSummary": "Please check these fields:",
  "form.closed": "The form below cannot be filled while registration is closed.",
  "confirm.title": "Please Confirm Your Phone Number.",
  "confirm.text": "We will send a verification code by SMS to this number:",
  "confirm.goBack": "Go Back",

  "verify.title": "Verify OTP",
  "verify.sent": "We have sent a 6-digit code by SMS to {phone}. It is valid for 10 minutes.",
  "verify.code": "OTP",
  "verify.submit": "Verify",
  "verify.resend": "Resend code",
  "verify.resendWait": "Please wait {seconds} seconds before asking for a new code.",
  "verify.triesLeft.one": "{count} try left with this code.",
  "verify.triesLeft.other": "{count} tries left with this code.",
  "verify.changeNumber": "Wrong number? Change it",
  "verify.changed": "Your number is changed to {phone}. Tap Resend code when it is ready to get your code on it.",
  "verify.notSent": "The code could not be sent to {phone}. Please tap Resend code to get a new one.",
  "verify.slow": "Sending the code to {phone} is taking longer than usual. It is being tried again.",
  "pending.means":
    "A pre-registration with this citizenship number is already waiting for its purchase. Take your citizenship card to a showroom to complete it; the staff there can also help if that pre-registration is not yours.",

  "continue.title": "Continue your pre-registration",
  "continue.intro": "Enter the phone number you pre-registered with. We will send a code to it by SMS.",
  "continue.sentTo":
    "If {phone} is pre-registered, we have sent a 6-digit code to it by SMS. It is valid for 10 minutes.",
  "continue.open": "Open my pre-registration",
  "continue.otherPhone": "Use another number",

  "entry.title": "Your details",

  "draw.title": "Your Prize",
  "draw.won": "Congratulations! You have won a cash discount of {amount} in the draw.",
  "draw.sharedBonus": "Sharing on social media adds {bonus}, so your total prize is {total}.",
  "draw.total": "Total prize",
  "draw.phone": "Phone: {phone}",
  "draw.next": "What next",
  "draw.visit":
    "Visit your nearest showroom with this phone ({phone}): your prize is taken off the price when you buy.",
  "draw.reference": "Your reference",
  "draw.referenceHint":
    "It names your draw on the public fair-draws list, where you can check it. At the showroom, staff find your entry by your phone number.",
  "draw.book": "Book a test ride",
  "draw.showrooms": "Find a showroom",
  "draw.share": "Share the campaign",
  "draw.shareText": "Share It. Win It. Pre-register and win up to {amount} on a new bike.",
  "draw.shareHint": "Sharing the campaign on social media earns Rs. 1,000.",

  "book.title": "Book a Ride",
  "book.type": "Type",
  "book.TESTRIDE": "Test Ride",
  "book.BOOKING": "Booking",
  "book.state": "Province",
  "book.district": "District",
  "book.city": "City",
  "book.model": "Model",
  "book.branch": "Branch",
  "book.update": "Update choices",
  "book.updateHint": "After choosing a province, district or city, press Update choices to narrow the next list.",

  "thanks.title": "Thank You for Test Ride Booking.",
  "thanks.text": "We will contact you within 3 working days.",
  "thanks.website": "Visit our official website",
  "thanks.back": "Go back to the home page",
  "thanks.titleBooking": "Thank You for Your Booking.",
  "thanks.bookedTESTRIDE": "You booked a test ride.",
  "thanks.bookedBOOKING": "You booked a bike to buy.",

  "rooms.title": "Nearby Showrooms",
  "rooms.zone": "Zone",
  "rooms.location": "Location",
  "rooms.filter": "Filter",
  "rooms.none": "No showroom found.",
  "rooms.count.one": "{count} showroom",
  "rooms.count.other": "{count} showrooms",
  "rooms.phone": "Phone",

  "winners.title": "Winners",
  "winners.ten_lakhs": "Won Rs. 10 lakh",
  "winners.one_lakh": "Won Rs. 1 lakh",
  "winners.fifty_thousand": "Won Rs. 50,000",
  "winners.lead": "Customers who won in the brand's lucky draws, grouped by the prize they won.",
  "winners.current": "Earlier campaigns had larger prizes; this campaign's prizes go up to {amount}.",
  "winners.none": "No winner videos yet.",
  "winners.watch": "Watch (opens in a new tab)",

  "fair.title": "Fair draws",
  "fair.link": "Check your draw yourself",
  "fair.intro":
    "Every prize of this campaign is decided by a public random number that no one, not even the campaign, can know before your entry is fixed, and anyone can check any draw the moment it is made.",
  "fair.proves":
    "A check proves that your draw used a random number published after your entry was fixed and that no draw of the day was changed, added, moved or left out; it does not prove who took part.",
  "fair.how.title": "How a draw is made",
  "fair.how.1":
    "Before each day, its terms are published: every prize pool with its amount, count and chance, and the beacon that will decide. They cannot change once published.",
  "fair.how.2":
    "When your phone is verified (or a purchase confirmed), your entry is fixed: written into the public record with its public id and the number of the next round of the League of Entropy's beacon, a random number signed by independent organisations every 3 seconds that nobody can know in advance.",
  "fair.how.3":
    "When that round comes, its number decides your draw by the published rules. Each record holds the fingerprint of the one before, so nothing can be removed, moved or changed afterwards without it showing.",
  "fair.how.4":
    "If the beacon cannot be reached, the draw uses the day's own secret number, committed before the day and published after it; such draws are marked.",
  "fair.check.title": "How to check",
  "fair.check.text":
    "Open a day and press “Check this day”: the check runs in your browser. Or save the day's record and run either checker on a computer (Node.js or Python):",
  "fair.find.title": "Find your draw",
  "fair.find.label": "Your draw's id",
  "fair.find.hint":
    "12 letters and digits, on your prize page, your coupon or your prize SMS (for example ABCD-EFGH-JKMN).",
  "fair.find.button": "Find",
  "fair.find.none": "No draw has this id.",
  "fair.find.invalid": "A draw's id has 12 letters and digits.",
  "fair.find.didYouMean": "Did you mean {ref}?",
  "fair.found.fixed": "Entry fixed {time}, to be decided by beacon round {round}.",
  "fair.found.drawn": "Drawn {time}: {prize}.",
  "fair.found.waiting": "Waiting for its beacon round (a few seconds).",
  "fair.found.check": "Check this draw's day",
  "fair.prize.none": "no prize",
  "fair.house": "drawn with the house seed: beacon unreachable",
  "fair.days.title": "Draw days",
  "fair.days.next": "Tomorrow's terms are committed: {hash}",
  "fair.download":
    "Download the campaign file (every day's terms and chain head) and keep it: a later check against it shows any day remade or cut.",
  "fair.sends.title": "Sent to the observers",
  "fair.sends.text":
    "Each closed day's chain head and the next day's terms go by SMS to observers head office names (an auditor, a notary, a journalist), so the record cannot be rewritten unseen.",
  "fair.sends.none": "Nothing sent yet.",
  "fair.sends.col.sent": "Sent",
  "fair.sends.col.phones": "Observers",
  "fair.col.date": "Day",
  "fair.col.terms": "Terms",
  "fair.col.entries": "Entries",
  "fair.col.draws": "Draws",
  "fair.col.house": "House seed",
  "fair.col.head": "Chain head",
  "fair.col.seed": "House seed",
  "fair.col.seq": "No.",
  "fair.col.time": "Time",
  "fair.col.kind": "Record",
  "fair.col.round": "Draw",
  "fair.col.beacon": "Beacon round",
  "fair.col.ref": "Id",
  "fair.col.prize": "Prize",
  "fair.kind.entry": "Entry fixed",
  "fair.kind.draw": "Drawn",
  "fair.seed.hidden": "Published when the day is closed",
  "fair.round.second": "Pre-registration prize",
  "fair.round.third": "Purchase coupon",
  "fair.beacon.demo":
    "Drawn with the demo beacon, whose key is public: these draws are a demonstration and prove nothing.",
  "fair.beacon.name": "Beacon: {name}",
  "fair.beacon.none": "No beacon: every draw used the house seed.",
  "fair.day.title": "Draws of {date}",
  "fair.day.json": "The day's record (JSON)",
  "fair.day.check": "Check this day",
  "fair.day.file": "Or check a saved copy of the day's record",
  "fair.day.checking": "Checking…",
  "fair.day.ok": "Every draw of this day checks: each used the beacon round after its entry, and the chain is whole.",
  "fair.day.bad": "Record {seq} does not check: {reason}",
  "fair.day.open":
    "This day is still open: its draws can be checked already; draws made with the house seed can be checked once its seed is published.",
  "fair.day.none": "No entries on this day.",
  "fair.day.back": "All draw days",
  "fair.day.records": "Records of {date}",
  "fair.day.pages": "Pages of the day's records",
  "fair.day.page": "Records, page {page} of {pages}",
  "fair.day.earlier": "Earlier records",
  "fair.day.later": "Later records",

  "error.notFound": "Page not found",
  "error.notFoundText": "The page you asked for does not exist or has moved.",
  "error.home": "Go to the home page",
} as const;

export type TextKey = keyof typeof en;

const ne: Record<TextKey, string> = {
  "site.title": "सेयर गर्नुहोस्। जित्नुहोस्।",
  "site.brand": "थ्रिल योजना",
  "site.home": "गृहपृष्ठ",
  "lang.label": "भाषा",
  "lang.en": "English",
  "lang.ne": "नेपाली",

  "nav.showrooms": "नजिकका शोरुमहरू",
  "nav.winners": "विजेताहरू",
  "nav.scheme": "योजनाको विवरण",
  "nav.terms": "नियम तथा सर्तहरू",
  "nav.privacy": "गोपनीयता नीति",
  "nav.book": "राइड बुक गर्नुहोस्",
  "nav.preregister": "पूर्व-दर्ता गर्नुहोस्",
  "nav.video": "भिडियो हेर्नुहोस्",

  "common.close": "बन्द गर्नुहोस्",
  "common.back": "पछाडि",
  "common.submit": "पेश गर्नुहोस्",
  "common.cancel": "रद्द गर्नुहोस्",
  "common.choose": "छान्नुहोस्…",
  "common.all": "सबै",
  "common.rs": "रु.",
  "common.notAvailable": "यो विवरण अहिले उपलब्ध छैन।",
  "common.followUs": "हामीलाई पछ्याउनुहोस्",
  "common.captcha": "क्याप्चा",
  "common.honeypot": "यो खाली छोड्नुहोस्",
  "common.loading": "लोड हुँदैछ…",
  "common.required": "* चिन्ह भएका विवरण अनिवार्य छन्।",

  "landing.tagline": "पूर्व-दर्ता गर्नुहोस्, आफ्नो फोन प्रमाणित गर्नुहोस् र नयाँ बाइकमा नगद छुट जित्नुहोस्।",
  "landing.bonus": "अभियान सामाजिक सञ्जालमा सेयर गरेर थप रु. १,००० पाउनुहोस्।",
  "landing.open": "दर्ता खुला छ",
  "landing.closed": "दर्ता बन्द छ",
  "landing.closedBanner": "दर्ता बन्द भएको छ। थप जानकारीका लागि कृपया एडमिनलाई सम्पर्क गर्नुहोस्।",
  "landing.formTitle": "पूर्व-दर्ता",
  "landing.more": "थप",
  "landing.prize": "{amount} सम्म जित्नुहोस्",
  "landing.prizeNote": "नयाँ बाइकमा नगद छुटको रूपमा, फोन प्रमाणित गर्नेबित्तिकै ड्र हुन्छ।",
  "landing.closedLead": "अहिले नयाँ पूर्व-दर्ता लिइँदैन। तपाईं अझै राइड बुक गर्न, शोरुम खोज्न र विजेताहरू हेर्न सक्नुहुन्छ।",
  "landing.how": "कसरी सहभागी हुने",
  "landing.step1": "आफ्नो फोन नम्बरसहित पूर्व-दर्ता गर्नुहोस्।",
  "landing.step2": "SMS मा आएको कोड लेख्नुहोस्।",
  "landing.step3": "तुरुन्तै आफ्नो पुरस्कार हेर्नुहोस्, र बाइक किन्दा शोरुममा दाबी गर्नुहोस्।",
  "landing.bikes": "हाम्रा बाइकहरू",
  "landing.allBikes": "सबै {count} बाइक हेर्नुहोस्",
  "landing.info": "जानकारी",

  "form.name": "पूरा नाम",
  "form.address": "ठेगाना",
  "form.email": "इमेल",
  "form.phone": "फोन नम्बर",
  "form.citizenship": "नागरिकता नं./प्यान",
  "form.bikeModel": "बाइक मोडल",
  "form.source": "जानकारीको स्रोत",
  "form.note": "टिप्पणी",
  "form.nearest": "नजिकको शोरुम",
  "form.shared": "मैले यो अभियान सामाजिक सञ्जालमा सेयर गरेको छु",
  "form.screenshot": "तपाईंको पोस्टको स्क्रिनसट",
  "form.screenshotHint": "JPEG, PNG वा WebP, बढीमा १० MB।",
  "form.screenshotShrunk": "यो तस्बिर १० MB भन्दा ठूलो छ: यसको सानो प्रति (बढीमा ७२० x १२८०) पठाइनेछ।",
  "form.screenshotKept": "तपाईंको स्क्रिनसट संलग्न छ। बदल्न अर्को फाइल छान्नुहोस्।",
  "form.save": "सेभ गर्नुहोस्",
  "form.saveNotify": "सेभ गरी सूचना पठाउनुहोस्",
  "form.continueOffer": "जारी राख्न हामी {phone} मा कोड पठाउन सक्छौं।",
  "form.sendCode": "कोड पठाउनुहोस्",
  "form.errorSummary": "कृपया यी विवरण जाँच्नुहोस्:",
  "form.closed": "दर्ता बन्द भएकाले तलको फारम भर्न मिल्दैन।",
  "confirm.title": "कृपया आफ्नो फोन नम्बर पुष्टि गर्नुहोस्।",
  "confirm.text": "हामी यो नम्बरमा SMS मार्फत प्रमाणीकरण कोड पठाउनेछौं:",
  "confirm.goBack": "पछाडि जानुहोस्",

  "verify.title": "OTP प्रमाणित गर्नुहोस्",
  "verify.sent": "हामीले {phone} मा SMS मार्फत ६ अङ्कको कोड पठाएका छौं। यो १० मिनेटसम्म मान्य हुन्छ।",
  "verify.code": "OTP",
  "verify.submit": "प्रमाणित गर्नुहोस्",
  "verify.resend": "कोड फेरि पठाउनुहोस्",
  "verify.resendWait": "नयाँ कोड माग्नुअघि कृपया {seconds} सेकेन्ड पर्खनुहोस्।",
  "verify.triesLeft.one": "यो कोडका लागि {count} प्रयास बाँकी छ।",
  "verify.triesLeft.other": "यो कोडका लागि {count} प्रयास बाँकी छन्।",
  "verify.changeNumber": "नम्बर गलत छ? बदल्नुहोस्",
  "verify.changed": "तपाईंको नम्बर {phone} मा बदलियो। त्यसमा कोड पाउन तयार भएपछि 'कोड फेरि पठाउनुहोस्' थिच्नुहोस्।",
  "verify.notSent": "{phone} मा कोड पठाउन सकिएन। नयाँ कोड पाउन 'कोड फेरि पठाउनुहोस्' थिच्नुहोस्।",
  "verify.slow": "{phone} मा कोड पठाउन सामान्यभन्दा बढी समय लागिरहेको छ। फेरि प्रयास भइरहेको छ।",
  "pending.means":
    "यो नागरिकता नम्बरको पूर्व-दर्ता खरिदको पर्खाइमा छ। त्यो खरिद पूरा गर्न आफ्नो नागरिकता लिएर शोरुममा जानुहोस्; त्यो पूर्व-दर्ता तपाईंको होइन भने पनि त्यहाँका कर्मचारीले सहयोग गर्नुहुन्छ।",

  "continue.title": "आफ्नो पूर्व-दर्ता जारी राख्नुहोस्",
  "continue.intro": "तपाईंले पूर्व-दर्ता गर्दा दिएको फोन नम्बर लेख्नुहोस्। हामी त्यसमा SMS मार्फत कोड पठाउनेछौं।",
  "continue.sentTo": "{phone} पूर्व-दर्ता भएको भए हामीले त्यसमा SMS मार्फत ६ अङ्कको कोड पठाएका छौं। यो १० मिनेटसम्म मान्य हुन्छ।",
  "continue.open": "मेरो पूर्व-दर्ता खोल्नुहोस्",
  "continue.otherPhone": "अर्को नम्बर प्रयोग गर्नुहोस्",

  "entry.title": "तपाईंको विवरण",

  "draw.title": "तपाईंको पुरस्कार",
  "draw.won": "बधाई छ! तपाईंले ड्रमा {amount} नगद छुट जित्नुभयो।",
  "draw.sharedBonus": "सामाजिक सञ्जालमा सेयर गरेबापत थप {bonus} जोडिँदा तपाईंको कुल पुरस्कार {total} हुन्छ।",
  "draw.total": "कुल पुरस्कार",
  "draw.phone": "फोन: {phone}",
  "draw.next": "अब के गर्ने",
  "draw.visit": "यही फोन ({phone}) लिएर नजिकको शोरुममा जानुहोस्: बाइक किन्दा पुरस्कार मूल्यबाट घटाइन्छ।",
  "draw.reference": "तपाईंको सन्दर्भ",
  "draw.referenceHint":
    "सार्वजनिक निष्पक्ष ड्र सूचीमा यसले तपाईंको ड्र देखाउँछ, जहाँ तपाईं आफैं जाँच्न सक्नुहुन्छ। शोरुममा कर्मचारीले तपाईंको फोन नम्बरबाट दर्ता भेट्टाउनुहुन्छ।",
  "draw.book": "टेस्ट राइड बुक गर्नुहोस्",
  "draw.showrooms": "शोरुम खोज्नुहोस्",
  "draw.share": "अभियान सेयर गर्नुहोस्",
  "draw.shareText": "सेयर गर्नुहोस्। जित्नुहोस्। पूर्व-दर्ता गरी नयाँ बाइकमा {amount} सम्म जित्नुहोस्।",
  "draw.shareHint": "अभियान सामाजिक सञ्जालमा सेयर गरेबापत रु. १,००० पाइन्छ।",

  "book.title": "राइड बुक गर्नुहोस्",
  "book.type": "प्रकार",
  "book.TESTRIDE": "टेस्ट राइड",
  "book.BOOKING": "बुकिङ",
  "book.state": "प्रदेश",
  "book.district": "जिल्ला",
  "book.city": "शहर",
  "book.model": "मोडल",
  "book.branch": "शाखा",
  "book.update": "विकल्पहरू मिलाउनुहोस्",
  "book.updateHint": "प्रदेश, जिल्ला वा शहर छानेपछि अर्को सूची छोट्याउन 'विकल्पहरू मिलाउनुहोस्' थिच्नुहोस्।",

  "thanks.title": "टेस्ट राइड बुकिङका लागि धन्यवाद।",
  "thanks.text": "हामी ३ कार्य दिनभित्र तपाईंलाई सम्पर्क गर्नेछौं।",
  "thanks.website": "हाम्रो आधिकारिक वेबसाइट हेर्नुहोस्",
  "thanks.back": "गृहपृष्ठमा फर्कनुहोस्",
  "thanks.titleBooking": "बुकिङका लागि धन्यवाद।",
  "thanks.bookedTESTRIDE": "तपाईंले टेस्ट राइड बुक गर्नुभयो।",
  "thanks.bookedBOOKING": "तपाईंले किन्नका लागि बाइक बुक गर्नुभयो।",

  "rooms.title": "नजिकका शोरुमहरू",
  "rooms.zone": "क्षेत्र",
  "rooms.location": "स्थान",
  "rooms.filter": "छान्नुहोस्",
  "rooms.none": "कुनै शोरुम भेटिएन।",
  "rooms.count.one": "{count} शोरुम",
  "rooms.count.other": "{count} शोरुम",
  "rooms.phone": "फोन",

  "winners.title": "विजेताहरू",
  "winners.ten_lakhs": "रु. १० लाख जित्ने",
  "winners.one_lakh": "रु. १ लाख जित्ने",
  "winners.lead": "ब्रान्डका लक्की ड्रमा जित्ने ग्राहकहरू, जितेको पुरस्कार अनुसार।",
  "winners.current": "अघिल्ला अभियानका पुरस्कार ठूला थिए; यस अभियानका पुरस्कार {amount} सम्म छन्।",
  "winners.fifty_thousand": "रु. ५०,००० जित्ने",
  "winners.none": "अहिलेसम्म विजेताका भिडियो छैनन्।",
  "winners.watch": "हेर्नुहोस् (नयाँ ट्याबमा खुल्छ)",

  "fair.title": "निष्पक्ष ड्र",
  "fair.link": "आफ्नो ड्र आफैं जाँच्नुहोस्",
  "fair.intro":
    "यस अभियानको हरेक पुरस्कार एउटा सार्वजनिक अनियमित नम्बरले तय गर्छ, जुन तपाईंको प्रविष्टि तय हुनुअघि कसैले, अभियानले समेत, थाहा पाउन सक्दैन; र जो कोहीले ड्र हुनेबित्तिकै जाँच्न सक्छ।",
  "fair.proves":
    "जाँचले तपाईंको ड्रमा प्रविष्टि तय भएपछि प्रकाशित अनियमित नम्बर प्रयोग भएको र दिनको कुनै ड्र बदलिएको, थपिएको, सारिएको वा छुटेको छैन भन्ने प्रमाणित गर्छ; कसले भाग लियो भन्ने प्रमाणित गर्दैन।",
  "fair.how.title": "ड्र कसरी हुन्छ",
  "fair.how.1":
    "हरेक दिनअघि त्यसका सर्तहरू प्रकाशित हुन्छन्: हरेक पुरस्कार पुलको रकम, सङ्ख्या र सम्भावना, र निर्णय गर्ने बीकन। प्रकाशित भएपछि ती बदलिन सक्दैनन्।",
  "fair.how.2":
    "तपाईंको फोन प्रमाणित हुँदा (वा खरिद पुष्टि हुँदा) तपाईंको प्रविष्टि तय हुन्छ: यसको सार्वजनिक आईडी र लिग अफ एन्ट्रोपीको बीकनको अर्को राउन्डको नम्बरसहित सार्वजनिक रेकर्डमा लेखिन्छ। बीकन स्वतन्त्र संस्थाहरूले हरेक ३ सेकेन्डमा हस्ताक्षर गर्ने अनियमित नम्बर हो, जुन पहिल्यै कसैले थाहा पाउन सक्दैन।",
  "fair.how.3":
    "त्यो राउन्ड आएपछि त्यसको नम्बरले प्रकाशित नियमअनुसार तपाईंको ड्र तय गर्छ। हरेक रेकर्डमा अघिल्लो रेकर्डको औंठाछाप हुन्छ, त्यसैले पछि केही हटाउन, सार्न वा बदल्न सकिँदैन; बदलिएमा देखिन्छ।",
  "fair.how.4":
    "बीकनमा पुग्न नसकिए ड्रले दिनकै गोप्य नम्बर प्रयोग गर्छ, जुन दिनअघि कमिट गरिन्छ र दिनपछि प्रकाशित हुन्छ; त्यस्ता ड्र चिन्ह लगाइन्छन्।",
  "fair.check.title": "कसरी जाँच्ने",
  "fair.check.text":
    "एक दिन खोल्नुहोस् र “यो दिन जाँच्नुहोस्” थिच्नुहोस्: जाँच तपाईंकै ब्राउजरमा हुन्छ। वा दिनको रेकर्ड सेभ गरी कम्प्युटरमा (Node.js वा Python) कुनै पनि जाँचक चलाउनुहोस्:",
  "fair.find.title": "आफ्नो ड्र खोज्नुहोस्",
  "fair.find.label": "तपाईंको ड्रको आईडी",
  "fair.find.hint": "१२ अक्षर र अङ्क, तपाईंको पुरस्कार पृष्ठ, कुपन वा पुरस्कार SMS मा (जस्तै ABCD-EFGH-JKMN)।",
  "fair.find.button": "खोज्नुहोस्",
  "fair.find.none": "यो आईडीको कुनै ड्र छैन।",
  "fair.find.invalid": "ड्रको आईडीमा १२ अक्षर र अङ्क हुन्छन्।",
  "fair.find.didYouMean": "के तपाईंले {ref} भन्न खोज्नुभएको हो?",
  "fair.found.fixed": "प्रविष्टि {time} मा तय भयो, बीकन राउन्ड {round} ले तय गर्ने।",
  "fair.found.drawn": "{time} मा ड्र भयो: {prize}।",
  "fair.found.waiting": "आफ्नो बीकन राउन्ड पर्खँदै (केही सेकेन्ड)।",
  "fair.found.check": "यो ड्रको दिन जाँच्नुहोस्",
  "fair.prize.none": "पुरस्कार छैन",
  "fair.house": "हाउस सिडले ड्र भयो: बीकनमा पुग्न सकिएन",
  "fair.days.title": "ड्रका दिनहरू",
  "fair.days.next": "भोलिका सर्तहरू कमिट भइसके: {hash}",
  "fair.download":
    "अभियान फाइल (हरेक दिनका सर्त र चेनको टुप्पो) डाउनलोड गरी राख्नुहोस्: पछि त्यससँग जाँच्दा कुनै दिन फेरि बनाइएको वा काटिएको देखिन्छ।",
  "fair.sends.title": "पर्यवेक्षकहरूलाई पठाइएको",
  "fair.sends.text":
    "हरेक बन्द दिनको चेनको टुप्पो र अर्को दिनका सर्त मुख्य कार्यालयले तोकेका पर्यवेक्षकहरू (लेखापरीक्षक, नोटरी, पत्रकार) लाई SMS बाट जान्छ, त्यसैले रेकर्ड नदेखिने गरी फेरि लेख्न सकिँदैन।",
  "fair.sends.none": "अहिलेसम्म केही पठाइएको छैन।",
  "fair.sends.col.sent": "पठाइएको",
  "fair.sends.col.phones": "पर्यवेक्षक",
  "fair.col.date": "दिन",
  "fair.col.terms": "सर्त",
  "fair.col.entries": "प्रविष्टि",
  "fair.col.draws": "ड्र",
  "fair.col.house": "हाउस सिड",
  "fair.col.head": "चेनको टुप्पो",
  "fair.col.seed": "हाउस सिड",
  "fair.col.seq": "क्र.सं.",
  "fair.col.time": "समय",
  "fair.col.kind": "रेकर्ड",
  "fair.col.round": "ड्र",
  "fair.col.beacon": "बीकन राउन्ड",
  "fair.col.ref": "आईडी",
  "fair.col.prize": "पुरस्कार",
  "fair.kind.entry": "प्रविष्टि तय",
  "fair.kind.draw": "ड्र भयो",
  "fair.seed.hidden": "दिन बन्द भएपछि प्रकाशित हुन्छ",
  "fair.round.second": "पूर्व-दर्ता पुरस्कार",
  "fair.round.third": "खरिद कुपन",
  "fair.beacon.demo": "डेमो बीकनबाट ड्र गरिएको, जसको कुञ्जी सार्वजनिक छ: यी ड्र प्रदर्शन मात्र हुन् र केही प्रमाणित गर्दैनन्।",
  "fair.beacon.name": "बीकन: {name}",
  "fair.beacon.none": "बीकन छैन: हरेक ड्रमा हाउस सिड प्रयोग भयो।",
  "fair.day.title": "{date} का ड्र",
  "fair.day.json": "दिनको रेकर्ड (JSON)",
  "fair.day.check": "यो दिन जाँच्नुहोस्",
  "fair.day.file": "वा दिनको रेकर्डको सेभ गरिएको प्रति जाँच्नुहोस्",
  "fair.day.checking": "जाँच हुँदैछ…",
  "fair.day.ok": "यस दिनका सबै ड्र मिले: हरेकले आफ्नो प्रविष्टिपछिको बीकन राउन्ड प्रयोग गर्‍यो, र चेन पूरा छ।",
  "fair.day.bad": "रेकर्ड {seq} मिलेन: {reason}",
  "fair.day.open": "यो दिन अझै खुला छ: यसका ड्र अहिले नै जाँच्न सकिन्छ; हाउस सिडले भएका ड्र सिड प्रकाशित भएपछि जाँच्न सकिन्छ।",
  "fair.day.none": "यस दिन कुनै प्रविष्टि भएन।",
  "fair.day.back": "सबै ड्रका दिन",
  "fair.day.records": "{date} का रेकर्ड",
  "fair.day.pages": "दिनका रेकर्डका पाना",
  "fair.day.page": "रेकर्ड, पाना {page} (जम्मा {pages})",
  "fair.day.earlier": "अघिल्ला रेकर्ड",
  "fair.day.later": "पछिल्ला रेकर्ड",

  "error.notFound": "पृष्ठ भेटिएन",
  "error.notFoundText": "तपाईंले खोजेको पृष्ठ छैन वा सारिएको छ।",
  "error.home": "गृहपृष्ठमा जानुहोस्",
};

const dictionaries: Record<Lang, Record<TextKey, string>> = { en, ne };

export const isLang = (v: unknown): v is Lang => v === "en" || v === "ne";

/** A counted phrase: `${key}.one` for 1, else `${key}.other` with {count}. */
export function tn(lang: Lang, key: "rooms.count" | "verify.triesLeft", count: number): string {
  return t(lang, `${key}.${count === 1 ? "one" : "other"}` as TextKey, { count });
}

/** The ten digits a language writes figures with: Devanagari in Nepali, as its texts do. */
export const DIGITS: Record<Lang, string> = { en: "0123456789", ne: "०१२३४५६७८९" };

/**
 * A figure's digits in the language's numerals, so a page uses one numeral system: Nepali pages write
 * amounts, counts and times in Devanagari digits. What a visitor types or reads out as it is written
 * (a phone number, a code, a reference) is passed as text and stays as it is.
 */
export function localDigits(lang: Lang, text: string): string {
  if (lang === "en") return text;
  return text.replace(/[0-9]/g, (d) => DIGITS[lang][Number(d)]);
}

/** A text in the language; a number among `vars` is a figure, written in the language's digits. */
export function t(lang: Lang, key: TextKey, vars: Record<string, string | number> = {}): string {
  const text = dictionaries[lang]?.[key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => {
    if (!(name in vars)) return m;
    const value = vars[name];
    return typeof value === "number" ? localDigits(lang, String(value)) : value;
  });
}

/** Nepali for server messages (field errors) the public pages show. */
const MESSAGES_NE: Record<string, string> = {
  "Please enter your full name.": "कृपया आफ्नो पूरा नाम लेख्नुहोस्।",
  "Please enter your address.": "कृपया आफ्नो ठेगाना लेख्नुहोस्।",
  "Please enter a valid email address.": "कृपया सही इमेल ठेगाना लेख्नुहोस्।",
  "Please enter your phone number.": "कृपया आफ्नो फोन नम्बर लेख्नुहोस्।",
  "Please enter a valid mobile number (10 digits starting with 9).":
    "कृपया ९ बाट सुरु हुने १० अङ्कको सही मोबाइल नम्बर लेख्नुहोस्।",
  "Please enter your citizenship number or PAN.": "कृपया नागरिकता नम्बर वा प्यान लेख्नुहोस्।",
  "The citizenship number or PAN must have 4 to 20 digits.": "नागरिकता नम्बर वा प्यानमा ४ देखि २० अङ्क हुनुपर्छ।",
  "Please choose a bike model from the list.": "कृपया सूचीबाट बाइक मोडल छान्नुहोस्।",
  "Please choose how you heard about us from the list.": "कृपया सूचीबाट जानकारीको स्रोत छान्नुहोस्।",
  "Please choose your nearest showroom.": "कृपया आफ्नो नजिकको शोरुम छान्नुहोस्।",
  "Please upload a screenshot of your post.": "कृपया आफ्नो पोस्टको स्क्रिनसट अपलोड गर्नुहोस्।",
  "This phone number is already pre-registered.": "यो फोन नम्बर पहिले नै पूर्व-दर्ता भइसकेको छ।",
  "This phone number is already pre-registered but not verified yet. Continue its verification.":
    "यो फोन नम्बर पहिले नै पूर्व-दर्ता भएको छ तर प्रमाणित भएको छैन। यसको प्रमाणीकरण जारी राख्नुहोस्।",
  "This citizenship/pan has pending purchase.": "यो नागरिकता/प्यानको खरिद बाँकी छ।",
  "Registration is closed. Please contact the admin for more information.":
    "दर्ता बन्द भएको छ। थप जानकारीका लागि कृपया एडमिनलाई सम्पर्क गर्नुहोस्।",
  "Your form could not be accepted. Please try again.": "तपाईंको फारम स्वीकार गर्न सकिएन। कृपया फेरि प्रयास गर्नुहोस्।",
  "OTP is required": "OTP आवश्यक छ",
  "Invalid OTP": "OTP मिलेन",
  "This OTP has expired. Please ask for a new code.": "यो OTP को म्याद सकियो। कृपया नयाँ कोड माग्नुहोस्।",
  "This OTP was entered wrongly too many times. Please ask for a new code.":
    "यो OTP धेरै पटक गलत हालियो। कृपया नयाँ कोड माग्नुहोस्।",
  "Invalid OTP. That was the last try for this code: please ask for a new one with Resend code.":
    "OTP मिलेन। यो कोडको अन्तिम प्रयास सकियो: कृपया Resend code थिचेर नयाँ कोड माग्नुहोस्।",
  "A new code has been sent.": "नयाँ कोड पठाइएको छ।",
  "If this phone number is pre-registered, a 6-digit code has been sent to it by SMS.":
    "यो फोन नम्बर पूर्व-दर्ता भएको भए त्यसमा SMS मार्फत ६ अङ्कको कोड पठाइएको छ।",
  "Please choose a test ride or a booking.": "कृपया टेस्ट राइड वा बुकिङ छान्नुहोस्।",
  "Please choose a province.": "कृपया प्रदेश छान्नुहोस्।",
  "Please choose a district.": "कृपया जिल्ला छान्नुहोस्।",
  "Please choose a city.": "कृपया शहर छान्नुहोस्।",
  "Please choose a model.": "कृपया मोडल छान्नुहोस्।",
  "Please choose a branch.": "कृपया शाखा छान्नुहोस्।",
  "Please choose a province from the list.": "कृपया सूचीबाट प्रदेश छान्नुहोस्।",
  "Please choose a district of the chosen province.": "कृपया छानिएको प्रदेशको जिल्ला छान्नुहोस्।",
  "Please choose a city of the chosen district.": "कृपया छानिएको जिल्लाको शहर छान्नुहोस्।",
  "Please choose a branch in the chosen city.": "कृपया छानिएको शहरको शाखा छान्नुहोस्।",
  "Please choose a model from the list.": "कृपया सूचीबाट मोडल छान्नुहोस्।",
  "Something went wrong! Please check the file and try again.": "केही गडबड भयो! कृपया फाइल जाँचेर फेरि प्रयास गर्नुहोस्।",
  "Only JPEG, PNG or WebP images are accepted.": "JPEG, PNG वा WebP तस्बिर मात्र स्वीकार्य छन्।",
  "The image may not be larger than 10 MB.": "तस्बिर १० MB भन्दा ठूलो हुनु हुँदैन।",
  "Please verify that you are not a robot.": "कृपया तपाईं रोबोट होइन भनी पुष्टि गर्नुहोस्।",
  "The captcha could not be checked. Please try again.": "क्याप्चा जाँच्न सकिएन। कृपया फेरि प्रयास गर्नुहोस्।",
  "The image may not exceed 40 megapixels.": "तस्बिर ४० मेगापिक्सेलभन्दा ठूलो हुनु हुँदैन।",
};

/** A server message in the visitor's language when it is a known one. */
export function tm(lang: Lang, message: string): string {
  if (lang === "en") return message;
  const exact = MESSAGES_NE[message];
  if (exact) return exact;
  const wait = /^Please wait (\d+) seconds before asking for a new code\.$/.exec(message);
  if (wait) return t(lang, "verify.resendWait", { seconds: Number(wait[1]) });
  const many = /^Too many attempts\. Please try again in (\d+) minute\(s\)\.$/.exec(message);
  if (many) return `धेरै प्रयास भए। कृपया ${localDigits(lang, many[1])} मिनेटपछि फेरि प्रयास गर्नुहोस्।`;
  const codes = /^Too many codes were sent to this phone\. Please try again in (\d+) minute\(s\)\.$/.exec(message);
  if (codes) return `यो फोनमा धेरै कोड पठाइए। कृपया ${localDigits(lang, codes[1])} मिनेटपछि फेरि प्रयास गर्नुहोस्।`;
  return message;
}

/** Field errors with their first message translated (later elements stay as they are). */
export function translateErrors(
  lang: Lang,
  errors: Record<string, string[]> | null | undefined,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(errors ?? {})) if (v?.length) out[k] = [tm(lang, v[0]), ...v.slice(1)];
  return out;
}

/** "Rs. 5,000" / "रु. ५,०००" with Nepali digit grouping, in the language's digits. */
export function rupees(lang: Lang, amount: number): string {
  return localDigits(lang, formatRupees(amount, t(lang, "common.rs")));
}

/**
 * The draw's congratulation: what the draw won, then, for a shared entry, what
 * sharing added and the total, so the sentence adds up to the total shown
 * beside it (spec 000 §9: total = first + second).
 */
export function drawCongratulation(lang: Lang, prize: { amount: number; first: number; total: number }): string {
  const won = t(lang, "draw.won", { amount: rupees(lang, prize.amount) });
  if (!prize.first) return won;
  return `${won} ${t(lang, "draw.sharedBonus", { bonus: rupees(lang, prize.first), total: rupees(lang, prize.total) })}`;
}
