/** Filter inputs for a DataTable's GET form: they keep the value of the current query string. */
import { useSearchParams } from "@remix-run/react";

export function FilterSelect({
  name,
  label,
  options,
}: {
  name: string;
  label: string;
  options: { value: string | number; label: string }[];
}) {
  const [params] = useSearchParams();
  return (
    <label>
      <span>{label}</span>
      <select name={name} defaultValue={params.get(name) ?? ""}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function FilterDate({ name, label }: { name: string; label: string }) {
  const [params] = useSearchParams();
  return (
    <label>
      <span>{label}</span>
      <input type="date" name={name} defaultValue={params.get(name) ?? ""} />
    </label>
  );
}
