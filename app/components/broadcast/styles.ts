/** The SMS and referrer screens' own stylesheet, linked by each of their routes. */
import type { LinksFunction } from "@remix-run/node";
import broadcastStyles from "~/styles/broadcast.css?url";

export const broadcastLinks: LinksFunction = () => [{ rel: "stylesheet", href: broadcastStyles }];
