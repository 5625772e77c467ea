/**
 * Decoding a recorded step the way the model's BFCL handler does (`decode_execute`): one
 * decoder per distinct behaviour, chosen per model folder. The public surface the checker,
 * call extraction and the commands import.
 */
export { decodeFailure, failureMessage, failureType, guarded, isEmptyDecoded, type DecodeOutcome } from "./outcome.js";
export { decodeFcStep, decodeFcStepPlain, fcStepError, plainToPy, renderFcCall } from "./fc.js";
export { decodePromptingStep, decodePromptingText, promptingSource } from "./prompting.js";
export {
  DECODER_NAMES,
  bfclDefaultDecoder,
  decodePlainStep,
  decoderByName,
  decoders,
  detectionOrder,
  fcDecoder,
  plainStepDecoder,
  promptingDecoder,
  toolCallTags,
  type Decoder,
  type DecoderName,
} from "./decoders.js";
export type { DecodeOwner, DecoderSpec, PlainStepPath } from "./decoder.js";
export { registryEntryOfFolder, registryHandlers, registryModels, type RegistryModel, type RegistryHandler } from "./registry.js";
export {
  chooseDecoder,
  detectDecoder,
  isEmptyStep,
  summarizeChoice,
  unknownDecoderMessage,
  DETECTION_SAMPLE,
  type ChooseDecoderInput,
  type DecoderChoice,
  type DecoderChoiceSummary,
  type DecoderSource,
} from "./select.js";
export {
  countTurn,
  decodeFailureMessage,
  looksLikeToolCall,
  newDecodeHealth,
  tooManyDecodeFailures,
  DECODE_FAILURE_LIMIT,
  type DecodeHealth,
  type DecoderChosen,
} from "./health.js";
export { pyStepsOf, sampleSteps } from "./sample.js";
