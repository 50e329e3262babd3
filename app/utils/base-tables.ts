/**
 * The fallback (base) tables' names in settings and their defaults: plain
 * data, shared by the draw's settings (prize-settings.server.ts) and tests.
 */
export const BASE_TABLE_KINDS = ["second", "third"] as const;
export type BaseTableKind = (typeof BASE_TABLE_KINDS)[number];
export type BaseTableRow = { amount: number; weight: number };

export const BASE_TABLE_KEYS: Record<BaseTableKind, string> = {
  second: "second_thrill_base_table",
  third: "third_thrill_base_table",
};

export const DEFAULT_BASE_TABLES: Record<BaseTableKind, readonly BaseTableRow[]> = {
  second: [
    { amount: 4000, weight: 1 },
    { amount: 5000, weight: 1 },
    { amount: 6000, weight: 1 },
    { amount: 7000, weight: 1 },
  ],
  third: [],
};
