/**
 * What every public page needs around its content: the visitor's language,
 * the logo, the footer links, the brand website and the campaign state.
 */
import type { Lang } from "~/utils/i18n";
import { fileUrl, getFile } from "./file.server";
import { cachedPublic } from "./public-cache.server";
import { getSetting, publicSettings } from "./settings.server";

export type SocialLink = { label: string; url: string };

export type Chrome = {
  lang: Lang;
  /** The current address (for the language links to return to). */
  path: string;
  logoUrl: string | null;
  /** The logo's size at 36 px high, when known. */
  logoSize?: { width: number; height: number } | null;
  social: SocialLink[];
  website: string;
  registrationOpen: boolean;
};

const DEFAULT_SOCIAL: SocialLink[] = [
  { label: "Facebook", url: "https://www.facebook.com/" },
  { label: "Instagram", url: "https://www.instagram.com/" },
  { label: "YouTube", url: "https://www.youtube.com/" },
  { label: "TikTok", url: "https://www.tiktok.com/" },
];

const isHttp = (url: unknown): url is string => typeof url === "string" && /^https?:\/\/\S+$/i.test(url);

/** The logo setting may hold a stored file id or an address. */
function logoUrl(value: unknown): string | null {
  if (typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))) return fileUrl(Number(value));
  if (typeof value === "string" && (value.startsWith("/") || isHttp(value))) return value;
  return null;
}

/** A stored logo's size drawn 36 px high (so the header does not move as it loads). */
function logoSize(value: unknown): { width: number; height: number } | null {
  const id = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? +value : 0;
  if (!id) return null;
  return cachedPublic("settings:logo-size", () => {
    const file = getFile(id);
    return file?.width && file.height ? { width: Math.round((36 * file.width) / file.height), height: 36 } : null;
  });
}

/** A public page's frame in the visitor's language; `path` is the address its language links return to. */
export function publicChrome({ lang, path }: { lang: Lang; path: string }): Chrome {
  const settings = publicSettings();
  const { social, website } = cachedPublic("settings:links", () => ({
    social: getSetting<unknown>("social_links", null),
    website: getSetting<unknown>("website", null),
  }));
  return {
    lang,
    path,
    logoUrl: logoUrl(settings.logo),
    logoSize: logoSize(settings.logo),
    social: Array.isArray(social)
      ? social.filter((s): s is SocialLink => Boolean(s) && typeof s.label === "string" && isHttp(s.url))
      : DEFAULT_SOCIAL,
    website: isHttp(website)
      ? website
      : isHttp(process.env.BRAND_WEBSITE_URL)
        ? process.env.BRAND_WEBSITE_URL!
        : "https://www.example.com/",
    // Read once per request, with the other settings.
    registrationOpen: settings.registration_open,
  };
}
