// The table renderer lives in formats/ (reports in evals/ render tables too); CLI code and bench
// keep importing it from here.
export { displayWidth, renderTable } from "../../formats/index.js";
