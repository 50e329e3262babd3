/**
 * Nepal's seven provinces and their 77 districts (the Constitution of 2015): the places a
 * branch is in. The branch form chooses from them and the server takes nothing else, so the
 * public site's Zone / Province and District choices, read from the branches, are real places.
 */
export const PROVINCES = [
  {
    name: "Koshi",
    districts: [
      "Bhojpur",
      "Dhankuta",
      "Ilam",
      "Jhapa",
      "Khotang",
      "Morang",
      "Okhaldhunga",
      "Panchthar",
      "Sankhuwasabha",
      "Solukhumbu",
      "Sunsari",
      "Taplejung",
      "Terhathum",
      "Udayapur",
    ],
  },
  {
    name: "Madhesh",
    districts: ["Bara", "Dhanusha", "Mahottari", "Parsa", "Rautahat", "Saptari", "Sarlahi", "Siraha"],
  },
  {
    name: "Bagmati",
    districts: [
      "Bhaktapur",
      "Chitwan",
      "Dhading",
      "Dolakha",
      "Kathmandu",
      "Kavrepalanchok",
      "Lalitpur",
      "Makwanpur",
      "Nuwakot",
      "Ramechhap",
      "Rasuwa",
      "Sindhuli",
      "Sindhupalchok",
    ],
  },
  {
    name: "Gandaki",
    districts: [
      "Baglung",
      "Gorkha",
      "Kaski",
      "Lamjung",
      "Manang",
      "Mustang",
      "Myagdi",
      "Nawalparasi East",
      "Parbat",
      "Syangja",
      "Tanahun",
    ],
  },
  {
    name: "Lumbini",
    districts: [
      "Arghakhanchi",
      "Banke",
      "Bardiya",
      "Dang",
      "Gulmi",
      "Kapilvastu",
      "Nawalparasi West",
      "Palpa",
      "Pyuthan",
      "Rolpa",
      "Rukum East",
      "Rupandehi",
    ],
  },
  {
    name: "Karnali",
    districts: ["Dailekh", "Dolpa", "Humla", "Jajarkot", "Jumla", "Kalikot", "Mugu", "Rukum West", "Salyan", "Surkhet"],
  },
  {
    name: "Sudurpashchim",
    districts: ["Achham", "Baitadi", "Bajhang", "Bajura", "Dadeldhura", "Darchula", "Doti", "Kailali", "Kanchanpur"],
  },
] as const satisfies readonly { name: string; districts: readonly string[] }[];

const key = (value: string) => value.replace(/\s+/g, " ").trim().toLowerCase();

/** The province as the list spells it ("bagmati " → "Bagmati"), or undefined when it is none of the seven. */
export const findProvince = (value: string): string | undefined =>
  PROVINCES.find((p) => key(p.name) === key(value))?.name;

/** The district as the list spells it, or undefined when it is none of the 77. */
export function findDistrict(value: string): string | undefined {
  for (const p of PROVINCES) for (const d of p.districts) if (key(d) === key(value)) return d;
  return undefined;
}

/** The province a district (as the list spells it) lies in. */
export const provinceOf = (district: string): string | undefined =>
  PROVINCES.find((p) => (p.districts as readonly string[]).includes(district))?.name;
