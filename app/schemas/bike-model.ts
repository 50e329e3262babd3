/**
 * The bike model form and API payload (spec 001 §2.5, §3): title and the
 * thumbnail (a file id chosen in the picker, or empty for none).
 */
import { z } from "zod";
import { optionalId, requiredText } from "./primitives";

export const BIKE_MODEL_MESSAGES = {
  title: "Enter the model name.",
  titleTaken: "A bike model with this name already exists.",
  thumbnail: "Choose an image from the picker or upload one.",
} as const;

export const bikeModelSchema = z.object({
  title: requiredText(100, BIKE_MODEL_MESSAGES.title),
  thumbnail: optionalId(BIKE_MODEL_MESSAGES.thumbnail),
});

export type BikeModelInput = z.output<typeof bikeModelSchema>;
