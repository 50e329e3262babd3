/**
 * The typing filters of spec 000 §5 as the browser runs them. The rules themselves are
 * FILTER_PATTERNS of app/schemas/preregistration.ts (the server filters with the same
 * ones); the build puts their values into the page script, never the schema module.
 */
import { FILTER_PATTERNS } from "~/schemas/preregistration";

export type FilterName = keyof typeof FILTER_PATTERNS;

const patterns: Partial<Record<FilterName, RegExp>> = {
  email: new RegExp(FILTER_PATTERNS.email, "g"),
  digits: new RegExp(FILTER_PATTERNS.digits, "g"),
};
try {
  // Unicode property escapes: a browser without them leaves names to the server's filter.
  patterns.text = new RegExp(FILTER_PATTERNS.text, "gu");
  patterns.address = new RegExp(FILTER_PATTERNS.address, "gu");
} catch {
  /* the server filters the value on save */
}

const DEVANAGARI_DIGITS = /[\u0966-\u096F]/g;

/** The value with the characters its filter drops removed (Devanagari digits count as digits). */
export function applyFilter(name: string, value: string): string {
  const pattern = patterns[name as FilterName];
  if (!pattern) return value;
  const v = name === "digits" ? value.replace(DEVANAGARI_DIGITS, (c) => String(c.charCodeAt(0) - 0x0966)) : value;
  return v.replace(pattern, "");
}
