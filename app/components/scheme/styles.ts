/** The scheme screens' own stylesheet, linked by each of their routes. */
import type { LinksFunction } from "@remix-run/node";
import schemeStyles from "~/styles/scheme.css?url";

export const schemeLinks: LinksFunction = () => [{ rel: "stylesheet", href: schemeStyles }];
