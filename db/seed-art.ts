/**
 * The demo bikes' pictures: a motorbike drawn in SVG (side view: wheels with hubs and discs, fork and
 * handlebar, headlight, tank, seat, engine and exhaust) on the model's colour, its name above,
 * turned into a PNG by sharp. A real campaign uploads its own photos.
 */
export const escapeXml = (s: string) =>
  s.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!);

export function motorbikeSvg(title: string, color: string): string {
  const wheel = (cx: number) =>
    `<circle cx="${cx}" cy="290" r="64" fill="#1d1d1f"/><circle cx="${cx}" cy="290" r="44" fill="none" stroke="#fff" stroke-width="6"/>` +
    `<circle cx="${cx}" cy="290" r="24" fill="#d0d4d9"/><circle cx="${cx}" cy="290" r="8" fill="#1d1d1f"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400" viewBox="0 0 640 400">
<rect width="640" height="400" fill="${color}"/>
<ellipse cx="320" cy="356" rx="250" ry="12" fill="#000" opacity="0.2"/>
<path d="M160 290 L290 250" stroke="#1d1d1f" stroke-width="16" stroke-linecap="round"/>
<path d="M300 300 L170 312" stroke="#b8bec6" stroke-width="12" stroke-linecap="round"/>
${wheel(160)}${wheel(480)}
<path d="M480 290 L428 138" stroke="#d0d4d9" stroke-width="14" stroke-linecap="round"/>
<path d="M410 140 L446 128 L470 138" fill="none" stroke="#1d1d1f" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>
<path d="M438 168 L470 176 L462 206 L436 196 Z" fill="#fff"/>
<rect x="262" y="232" width="96" height="62" rx="10" fill="#3a3f45"/>
<path d="M276 244 h68 M276 260 h68 M276 276 h68" stroke="#8a929b" stroke-width="5"/>
<path d="M250 228 Q286 168 384 170 Q424 172 440 198 L420 228 Z" fill="#fff"/>
<path d="M250 228 Q286 168 384 170" fill="none" stroke="#1d1d1f" stroke-width="4" opacity="0.25"/>
<path d="M132 214 Q180 196 252 206 L252 228 L150 234 Z" fill="#1d1d1f"/>
<path d="M112 230 L152 222 L152 236 L118 240 Z" fill="#fff" opacity="0.9"/>
<text x="320" y="78" font-family="sans-serif" font-size="40" font-weight="700" fill="#fff" text-anchor="middle">${escapeXml(title)}</text>
</svg>`;
}
