/** A public page script built by scripts/public-scripts-plugin.ts: its minified code. */
declare module "*?public-script" {
  const script: { code: string };
  export default script;
}
declare module "*?on-demand-script" {
  const script: { code: string };
  export default script;
}
