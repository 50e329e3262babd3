/**
 * Booking forms (form[data-cascade]): state narrows districts, district narrows cities,
 * city narrows branches and selects the first, in the browser (without JavaScript the
 * server narrows them when "Update choices" is pressed).
 */
import { fresh, onEnhance } from "./dom";

type Branch = { id: number; title: string; state: string; district: string; city: string };

const sorted = (values: string[]) =>
  values.filter((v, i) => values.indexOf(v) === i).sort((x, y) => x.localeCompare(y));

onEnhance(() =>
  fresh<HTMLFormElement>("form[data-cascade]").forEach((form) => {
    const all = JSON.parse(form.getAttribute("data-cascade") || "[]") as Branch[];
    const placeholder = form.getAttribute("data-placeholder") || "";
    // A refused post opens on its error summary; it takes the focus too.
    form.querySelector<HTMLElement>("#form-errors")?.focus();
    const select = (name: string) => form.elements.namedItem(name) as HTMLSelectElement;
    const [state, district, city, branch] = ["state", "district", "city", "branch_id"].map(select);

    const fill = (sel: HTMLSelectElement, items: [string | number, string][]) => {
      sel.innerHTML = "";
      sel.add(new Option(placeholder, ""));
      items.forEach(([value, label]) => sel.add(new Option(label, String(value))));
      sel.value = "";
    };
    const column = (list: Branch[], key: "district" | "city") =>
      sorted(list.map((b) => b[key])).map((v): [string, string] => [v, v]);

    /** Refills the selects below `level` (0 state, 1 district, 2 city). */
    const update = (level: number) => {
      const inState = all.filter((b) => !state.value || b.state === state.value);
      if (level < 1) fill(district, column(inState, "district"));
      const inDistrict = inState.filter((b) => !district.value || b.district === district.value);
      if (level < 2) fill(city, column(inDistrict, "city"));
      const inCity = inDistrict.filter((b) => !city.value || b.city === city.value);
      fill(
        branch,
        inCity.map((b): [number, string] => [b.id, b.title]),
      );
      if (city.value && inCity.length) branch.value = String(inCity[0].id);
    };
    state.addEventListener("change", () => update(0));
    district.addEventListener("change", () => update(1));
    city.addEventListener("change", () => update(2));
  }),
);
