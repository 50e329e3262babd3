/**
 * The shared-on-social-media proof: "No", or a thumbnail opening a large
 * viewer with a Close button. The viewer is a :target overlay, so it opens and
 * closes without JavaScript too.
 */
export function ProofViewer({ shared, url, id = "proof" }: { shared: boolean; url: string | null; id?: string }) {
  if (!shared) return <>No</>;
  if (!url) return <>Yes (no screenshot)</>;
  return (
    <>
      <a href={`#${id}`} className="proof-thumb" aria-label="View the proof screenshot">
        <img src={url} alt="Proof screenshot" width={96} height={96} />
      </a>
      <div id={id} className="proof-viewer" role="dialog" aria-label="Proof screenshot">
        <div className="proof-box">
          <img src={url} alt="Proof screenshot, large" />
          <a href="#_" className="button">
            Close
          </a>
        </div>
      </div>
    </>
  );
}
