/** The choices of a select, from records with an id and a title (branches, bike models, roles). Browser-safe. */
export const titledOptions = (rows: readonly { id: number; title: string }[]) =>
  rows.map((r) => ({ value: r.id, label: r.title }));
