/**
 * The scheme form as the shared schema sees it. The branch field is hidden for
 * a public pre-registration scheme (by CSS without JavaScript, so its select
 * still posts a value); a hidden field's value is not part of the scheme, so it
 * is dropped before parsing, in the browser and on the server alike.
 */
import { typeNeedsBranch, isAllocationType } from "~/utils/prize-constants";

export function schemeFormData(form: FormData): FormData {
  const type = form.get("type");
  if (isAllocationType(type) && !typeNeedsBranch(type)) form.delete("branch_id");
  form.delete("intent");
  return form;
}
