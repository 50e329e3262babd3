/** First, second and third thrill with their total (spec 000 §9: total = first + second (+ third)). */
import { prizeLabel } from "~/utils/prize-constants";

type Prizes = { first: number; second: number; third: number; total: number };

export function PrizeBreakdown({ prizes, third = true }: { prizes: Prizes; third?: boolean }) {
  return (
    <table className="prize-breakdown">
      <tbody>
        <tr>
          <th scope="row">First Thrill (shared on social media)</th>
          <td>{prizes.first ? prizeLabel(prizes.first) : "—"}</td>
        </tr>
        <tr>
          <th scope="row">Second Thrill (pre-registration prize)</th>
          <td>{prizes.second ? prizeLabel(prizes.second) : "—"}</td>
        </tr>
        {third ? (
          <tr>
            <th scope="row">Third Thrill (purchase coupon)</th>
            <td>{prizes.third ? prizeLabel(prizes.third) : "—"}</td>
          </tr>
        ) : null}
        <tr className="total">
          <th scope="row">Total Prize</th>
          <td>{prizeLabel(prizes.total)}</td>
        </tr>
      </tbody>
    </table>
  );
}

export const amountText = (amount: number | null | undefined) => (amount ? prizeLabel(amount) : "—");
