/**
 * In the browser zod never compiles code from strings: the Content-Security-Policy allows no
 * eval, and zod's probe for it (new Function) would be reported as a violation. Imported first
 * by app/root.tsx, so it runs before any schema module builds its schemas. (A .client module:
 * the server keeps zod's faster compiled parsers.)
 */
import { config } from "zod";

config({ jitless: true });
