// Public face of evals/calibration: human labels of evaluation results, and how far a judge agrees
// with them (seed 002 sections 4 and 5.3). The statistics are pure modules; labels.ts and
// service.ts read and write the store.
export {
  type Confusion,
  confusion,
  meanAbsoluteError,
  mostCommon,
  quadraticWeightedKappa,
  shareWithin,
} from "./agreement.js";
export { CalibrationNotFoundError, CalibrationRequestError, LabelImportError } from "./errors.js";
export { type FewshotPick, type FewshotRole, pickFewshot } from "./fewshot.js";
export {
  constantBaseline,
  DEFAULT_GOLDEN_SET,
  type GoldenSetOptions,
  type GoldenSetVerdict,
  goldenSetVerdict,
  type PassFailFigures,
  type ScoreFigures,
  scoreFigures,
} from "./golden-set.js";
export { type AlphaMetric, krippendorffAlpha, pairedAlpha } from "./krippendorff.js";
export {
  type LabelFileIssue,
  type LabelLine,
  LabelLineSchema,
  readLabelFile,
} from "./label-file.js";
export {
  importLabels,
  type Labeller,
  labelItem,
  nextToLabel,
  putLabel,
  removeLabel,
  resultLabels,
  runLabels,
  runScales,
} from "./labels.js";
export { type Interval, type PpiEstimate, ppiMean, wilsonInterval, Z_95 } from "./ppi.js";
export { averageRanks, kendallTauB, pearson, spearmanRho } from "./rank-correlation.js";
export { renderCalibrationTable } from "./render.js";
export { runJudges } from "./run-judges.js";
export {
  buildCalibrationReport,
  type CalibrationOptions,
  type CalibrationReport,
  type Disagreement,
} from "./report.js";
export {
  type CalibrateRequest,
  calibrateEvaluation,
  calibrateMonitor,
  suggestFewshot,
} from "./service.js";
export {
  type LabelInput,
  LabelInputSchema,
  LabelScaleSchema,
  SCALE_RANGES,
  scaleOfJudge,
} from "./scales.js";
