/** The counter screens' own stylesheet, linked by each of their routes. */
import type { LinksFunction } from "@remix-run/node";
import counterStyles from "~/styles/admin-counter.css?url";

export const counterLinks: LinksFunction = () => [{ rel: "stylesheet", href: counterStyles }];
