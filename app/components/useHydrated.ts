import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False while the server renders and during hydration, true once the browser's scripts run. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
