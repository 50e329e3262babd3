import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The visitor's address (Express req.ip), for rate limits. */
    clientAddress: string;
    /** This request's Content-Security-Policy nonce (server.js), for the page's inline scripts. */
    cspNonce?: string;
  }
}
