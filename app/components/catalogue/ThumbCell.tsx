/** A catalogue list's first cell: the thumbnail (or its empty frame) before the name. */
import type { ReactNode } from "react";

export function ThumbCell({ src, children }: { src: string | null; children: ReactNode }) {
  return (
    <span className="thumb-cell">
      {src ? <img src={src} alt="" width={64} height={40} loading="lazy" /> : <span className="no-image" />}
      {children}
    </span>
  );
}
