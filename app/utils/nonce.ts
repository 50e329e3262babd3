/**
 * The Content-Security-Policy nonce of the request being rendered. server.js makes one per
 * request and names it in the policy; entry.server.tsx hands it to React through this context,
 * so every inline script of the page (Remix's own and the public pages') carries it.
 */
import { createContext, useContext } from "react";

const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

/** The page's nonce ("" in the browser, where it is hidden and not needed). */
export const useNonce = () => useContext(NonceContext);
