import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The visitor's address (Express req.ip), for rate limits. */
    clientAddress: string;
  }
}
