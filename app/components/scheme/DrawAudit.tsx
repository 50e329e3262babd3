/** One draw's trail, expandable in its table row: the pools it considered (before the draw) and every value rolled. */
import type { PoolAudit, Roll } from "~/models/prize-draw.server";
import { rupees } from "./format";

export function DrawAudit({ pools, rolls }: { pools: PoolAudit[]; rolls: Roll[] }) {
  return (
    <details className="draw-audit">
      <summary>
        {pools.length} {pools.length === 1 ? "pool" : "pools"}, {rolls.length} {rolls.length === 1 ? "roll" : "rolls"}
      </summary>
      <div className="draw-audit-body">
        <h4>Pools considered</h4>
        {pools.length === 0 ? (
          <p className="muted">No pool with prizes left.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Scheme</th>
                <th scope="col">Amount</th>
                <th scope="col">Count</th>
                <th scope="col">Paid</th>
                <th scope="col">Remaining</th>
                <th scope="col">Probability</th>
              </tr>
            </thead>
            <tbody>
              {pools.map((p) => (
                <tr key={p.id}>
                  <td>#{p.id}</td>
                  <td>{rupees(p.amount)}</td>
                  <td>{p.count}</td>
                  <td>{p.paid}</td>
                  <td>{p.remaining}</td>
                  <td>{p.probability} in 100</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <h4>Rolls</h4>
        {rolls.length === 0 ? (
          <p className="muted">Nothing rolled.</p>
        ) : (
          <ol className="rolls">
            {rolls.map((r, i) => (
              <li key={i}>
                {r.stage === "pool" ? (
                  <>
                    Scheme #{r.allocation_id} ({rupees(r.amount)}, {r.probability} in 100): rolled{" "}
                    <code>{r.value.toFixed(6)}</code>, {r.win ? <strong>win</strong> : "no win"}
                    {r.win ? null : ` (needs below ${(r.probability / 100).toFixed(2)})`}
                  </>
                ) : (
                  <>
                    {r.table === "second" ? "Second" : "Third"}-thrill base table: rolled{" "}
                    <code>{r.value.toFixed(6)}</code>, <strong>{rupees(r.amount)}</strong>
                  </>
                )}
              </li>
            ))}
          </ol>
        )}
      </div>
    </details>
  );
}
