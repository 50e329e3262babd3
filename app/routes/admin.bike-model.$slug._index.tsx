import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmSubmit, DeleteForm } from "~/components/ConfirmSubmit";
import { Guard } from "~/components/Guard";
import { catalogueLinks } from "~/components/catalogue/styles";
import {
  BIKE_MODEL_ERRORS,
  deleteBikeModel,
  getBikeModel,
  restoreBikeModel,
  retireBikeModel,
  type BikeModelDetail,
} from "~/models/bike-model.server";
import { failureStatus } from "~/utils/failure";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { notFound, pageFailure } from "~/http/http.server";
import { displayDateTime } from "~/utils/time";
import { redirectWithToast, success } from "~/http/toast.server";
import { DetailList, type DetailRow } from "~/components/DetailList";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = {
  permission: "read-bike-model",
  intents: { delete: "update-bike-model", retire: "update-bike-model", restore: "update-bike-model" },
} as const satisfies RouteAccess;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.model.title ?? "Bike Model" }];
export const links = catalogueLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  const model = getBikeModel(params.slug ?? "");
  if (!model) throw notFound(BIKE_MODEL_ERRORS.notFound);
  return { model };
}

/** intent=delete (a model no record names), retire, restore: update-bike-model. A refusal shows on the page. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { intent, staff: user } = await requireIntent(request, handle);
  const slug = params.slug ?? "";
  const here = `/admin/bike-model/${slug}`;
  const act = { delete: deleteBikeModel, retire: retireBikeModel, restore: restoreBikeModel }[intent];
  const result = act(user, slug);
  if (!result.ok) {
    if (result.code === "not_found") throw pageFailure(result);
    return data({ refused: { intent: String(intent), message: result.message } }, { status: failureStatus(result) });
  }
  if (intent === "delete")
    return redirectWithToast("/admin/bike-model", success(`Bike model "${result.bikeModel.title}" deleted.`));
  return redirectWithToast(
    here,
    success(
      intent === "retire"
        ? "Bike model retired. It no longer shows on the public forms."
        : "Bike model back on sale. It shows on the public forms again.",
    ),
  );
}

const USAGE: [keyof BikeModelDetail["usage"], string][] = [
  ["preregistrations", "Pre-registrations"],
  ["registrations", "Registrations"],
  ["test_rides", "Test rides"],
];

export default function BikeModelDetailPage() {
  const { model } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const retired = Boolean(model.retired_at);
  return (
    <>
      <h1>
        {model.title}
        {retired ? <span className="badge">Retired</span> : null}
      </h1>
      {reply?.refused ? (
        <div className="notice error" role="alert">
          <p>{reply.refused.message}</p>
          {reply.refused.intent === "delete" && !retired ? (
            <Form method="post">
              <button type="submit" name="intent" value="retire">
                Retire this model
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      <DetailList
        rows={[
          ["Name", model.title],
          ["Status", retired ? `Retired on ${displayDateTime(model.retired_at!)}` : "On sale"],
          ...USAGE.map(([k, label]): DetailRow => [label, model.usage[k]]),
        ]}
      />
      <section className="detail-section" aria-labelledby="image-title">
        <h2 id="image-title">Image</h2>
        {model.thumbnail_url ? (
          <img
            className="record-image"
            src={model.thumbnail_url}
            alt={`${model.title}${model.thumbnail_filename ? ` (${model.thumbnail_filename})` : ""}`}
          />
        ) : (
          <p className="muted">No image.</p>
        )}
        {!model.deletable ? (
          <p className="muted">
            A model with records cannot be deleted; retire it instead. A retired model leaves the public forms at once,
            and its records keep its name.
          </p>
        ) : null}
      </section>
      <div className="actions">
        <Link to="/admin/bike-model" className="button">
          Back
        </Link>
        <Guard permission="update-bike-model">
          <Link to={`/admin/bike-model/${model.slug}/edit`} className="button primary">
            Edit
          </Link>
          {retired ? (
            <Form method="post">
              <button type="submit" name="intent" value="restore">
                Put back on sale
              </button>
            </Form>
          ) : (
            <Form method="post">
              <ConfirmSubmit
                name="intent"
                value="retire"
                message="Retire this model? It leaves the public forms at once."
                confirmLabel="Yes, retire it"
              >
                Retire
              </ConfirmSubmit>
            </Form>
          )}
          <DeleteForm />
        </Guard>
      </div>
    </>
  );
}
