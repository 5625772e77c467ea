/**
 * Every decoder, one line each, in the order `--help` lists them (BFCL v3's own last). A decoder is its file
 * (named after it) and its line here; everything else about decoders is derived from the
 * declarations (`../decoders.ts`).
 */
import { decoder as fc } from "./fc.js";
import { decoder as fcList } from "./fc-list.js";
import { decoder as fcDictList } from "./fc-dict-list.js";
import { decoder as geminiFc } from "./gemini-fc.js";
import { decoder as cohere } from "./cohere.js";
import { decoder as mining } from "./mining.js";
import { decoder as prompting } from "./prompting.js";
import { decoder as geminiPrompting } from "./gemini-prompting.js";
import { decoder as phi } from "./phi.js";
import { decoder as nemotron } from "./nemotron.js";
import { decoder as xlam } from "./xlam.js";
import { decoder as llama31 } from "./llama-3.1.js";
import { decoder as bitagent } from "./bitagent.js";
import { decoder as toolCall } from "./tool-call.js";
import { decoder as granite } from "./granite.js";
import { decoder as glm } from "./glm.js";
import { decoder as falcon } from "./falcon.js";
import { decoder as minicpmFc } from "./minicpm-fc.js";
import { decoder as functiongemma } from "./functiongemma.js";
import { decoder as thinkAgent } from "./think-agent.js";
import { decoder as gorilla } from "./gorilla.js";
import { decoder as nexus } from "./nexus.js";
import { decoder as hammer } from "./hammer.js";
import { decoder as fcListV3 } from "./fc-list-v3.js";
import { decoder as fcDictListV3 } from "./fc-dict-list-v3.js";
import { decoder as promptingV3 } from "./prompting-v3.js";
import { decoder as geminiPromptingV3 } from "./gemini-prompting-v3.js";
import { decoder as claudePromptingV3 } from "./claude-prompting-v3.js";
import { decoder as mistralPromptingV3 } from "./mistral-prompting-v3.js";
import { decoder as nvidiaV3 } from "./nvidia-v3.js";
import { decoder as phiV3 } from "./phi-v3.js";
import { decoder as nemotronV3 } from "./nemotron-v3.js";
import { decoder as toolCallV3 } from "./tool-call-v3.js";
import { decoder as falconV3 } from "./falcon-v3.js";
import { decoder as gorillaV3 } from "./gorilla-v3.js";
import { decoder as nexusV3 } from "./nexus-v3.js";
import { decoder as databricks } from "./databricks.js";

/** The declarations, in `--help` order. */
export const declaredDecoders = [
  fc,
  fcList,
  fcDictList,
  geminiFc,
  cohere,
  mining,
  prompting,
  geminiPrompting,
  phi,
  nemotron,
  xlam,
  llama31,
  bitagent,
  toolCall,
  granite,
  glm,
  falcon,
  minicpmFc,
  functiongemma,
  thinkAgent,
  gorilla,
  nexus,
  hammer,
  fcListV3,
  fcDictListV3,
  promptingV3,
  geminiPromptingV3,
  claudePromptingV3,
  mistralPromptingV3,
  nvidiaV3,
  phiV3,
  nemotronV3,
  toolCallV3,
  falconV3,
  gorillaV3,
  nexusV3,
  databricks,
] as const;
