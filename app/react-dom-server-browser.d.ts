// React's web-streams renderer, imported by its own path in Node (app/entry.server.tsx).
declare module "react-dom/server.browser" {
  export { renderToReadableStream } from "react-dom/server";
}
