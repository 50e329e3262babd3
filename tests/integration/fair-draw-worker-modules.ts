// What the fair-draws worker process loads, in one module graph (tsx's tsImport gives each call its own).
export { getDb } from "@db/index";
export { drawSecondThrill } from "~/models/prize-draw.server";
export { setClock } from "~/utils/time";
export { movingClock } from "../clock";
