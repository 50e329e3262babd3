/** The catalogue screens' own stylesheet (branches, bike models, videos, the file picker), linked by each of their routes. */
import type { LinksFunction } from "@remix-run/node";
import catalogueStyles from "~/styles/catalogue.css?url";

export const catalogueLinks: LinksFunction = () => [{ rel: "stylesheet", href: catalogueStyles }];
