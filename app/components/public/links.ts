import type { LinksFunction } from "@remix-run/node";
import publicCss from "~/styles/public.css?url";

/** The public stylesheet (app.css comes from the root). */
export const publicLinks: LinksFunction = () => [{ rel: "stylesheet", href: publicCss }];
