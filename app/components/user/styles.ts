/** The users and roles screens' own stylesheet, linked by each of their routes. */
import type { LinksFunction } from "@remix-run/node";
import userStyles from "~/styles/users.css?url";

export const userLinks: LinksFunction = () => [{ rel: "stylesheet", href: userStyles }];
