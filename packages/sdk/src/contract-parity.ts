/**
 * The SDK's hand-written answer shapes (types.ts) and generated inputs against packages/contract's
 * schemas: the typecheck fails when either side changes without the other. Not part of the build
 * (tsconfig.build.json leaves it out), so the package never imports the contract.
 */
import type {
  CallState as ContractCallState,
  ErrorCode as ContractErrorCode,
  FeatureCallResponse as ContractFeatureCallResponse,
  FEATURES as ContractFeatures,
  HistoryRequestRecord as ContractHistoryRequestRecord,
  RequestDetail as ContractRequestDetail,
  TrainingResult as ContractTrainingResult,
  TranscriptionResult as ContractTranscriptionResult,
} from "@prism/contract";
import type { z } from "zod";
import type { CallState, ErrorCode, FeatureId, FeatureInputs } from "./contract.generated.js";
import type {
  FeatureCallResponse,
  HistoryRequestRecord,
  RequestDetail,
  TrainingResult,
  TranscriptionResult,
} from "./types.js";

/** True only when A and B are the same type (each assignable to the other, optionality included). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;

type ContractFeature = (typeof ContractFeatures)[number];
/**
 * The text fields a feature's body schema takes (an empty schema's input is a string-keyed record:
 * no fields).
 */
type ContractBodyKeys<F extends ContractFeature> = string extends keyof z.input<F["bodySchema"]>
  ? never
  : keyof z.input<F["bodySchema"]>;
type SdkBodyKeys<F extends FeatureId> = Exclude<keyof FeatureInputs[F], "identityRequestId">;

/** Body fields of the contract that some feature's SDK input lacks (none, or the typecheck fails). */
type MissingBodyKeys = {
  [F in ContractFeature as F["id"]]: Exclude<ContractBodyKeys<F>, SdkBodyKeys<F["id"]>>;
}[FeatureId];

export type Parity = [
  Assert<Same<ErrorCode, ContractErrorCode>>,
  Assert<Same<CallState, ContractCallState>>,
  Assert<Same<FeatureId, ContractFeature["id"]>>,
  Assert<Same<HistoryRequestRecord, ContractHistoryRequestRecord>>,
  Assert<Same<FeatureCallResponse, ContractFeatureCallResponse>>,
  Assert<Same<RequestDetail, ContractRequestDetail>>,
  Assert<Same<TrainingResult, ContractTrainingResult>>,
  Assert<Same<TranscriptionResult, ContractTranscriptionResult>>,
  // Every body field of every feature is an input property (files and headers come on top).
  Assert<Same<MissingBodyKeys, never>>,
];
