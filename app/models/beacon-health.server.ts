/** What /healthz says of the draws' beacon: up or down (this process's view), and today's house-seed draws. */
import { beaconStatus } from "~/models/beacon.server";
import { houseDrawsToday } from "~/models/fair-observers.server";

export function beaconHealth() {
  const status = beaconStatus();
  const house = houseDrawsToday();
  const alert = !status.configured
    ? "beacon off: every draw uses the house seed"
    : !status.up
      ? `beacon unreachable since ${status.since}: draws use the house seed (${status.lastError ?? "no answer"})`
      : house
        ? `${house} draws today used the house seed (beacon unreachable at the time)`
        : null;
  return { ...status, houseDrawsToday: house, alert };
}
