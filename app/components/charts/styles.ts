/** The analytics page's and the charts' own stylesheet, linked by the routes that draw charts. */
import type { LinksFunction } from "@remix-run/node";
import analyticsStyles from "~/styles/analytics.css?url";

export const chartLinks: LinksFunction = () => [{ rel: "stylesheet", href: analyticsStyles }];
