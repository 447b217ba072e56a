import {
  AUDIO_TOO_LONG,
  AUDIO_UNREADABLE,
  BUDGET_REACHED,
  backgroundRemovalFeature,
  ERROR_DIALOGS,
  IMAGE_SIZE_LIMIT_TITLE,
  objectRemovalFeature,
  pegasusTrainingFeature,
  transcriptionFeature,
} from "@prism/contract";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-client";
import { runFailureOf } from "./run-failure";

describe("runFailureOf", () => {
  it("drops the row and says nothing on a 401: the api client signs the user out", () => {
    const failure = runFailureOf(new ApiError(401, "unauthenticated", "Sign in."), objectRemovalFeature);
    expect(failure).toEqual({ row: "remove", dialog: null });
  });

  it("drops the row and shows Insufficient Balance on a 402", () => {
    const failure = runFailureOf(
      new ApiError(402, "insufficient-balance", "Not enough money."),
      backgroundRemovalFeature,
    );
    expect(failure).toEqual({
      row: "remove",
      dialog: {
        title: ERROR_DIALOGS.insufficientBalance.title,
        html: ERROR_DIALOGS.insufficientBalance.message,
      },
    });
  });

  it("adds the way to Payments to the 402 dialogs for those who may pay", () => {
    const options = { canPay: true, paymentsPath: "/organization/payments" };
    expect(
      runFailureOf(new ApiError(402, "insufficient-balance", "Short."), backgroundRemovalFeature, options)
        .dialog?.action,
    ).toEqual({ label: "Add funds", to: "/organization/payments" });
    const budget = runFailureOf(
      new ApiError(402, "budget-reached", BUDGET_REACHED),
      backgroundRemovalFeature,
      options,
    );
    expect(budget).toEqual({
      row: "remove",
      dialog: {
        title: "Monthly Budget Reached",
        html: BUDGET_REACHED,
        action: { label: "Open Payments", to: "/organization/payments" },
      },
    });
  });

  it("drops the row and shows the server's text under the feature's title before the first deposit", () => {
    const failure = runFailureOf(
      new ApiError(402, "first-deposit-required", "Add funds <first>."),
      pegasusTrainingFeature,
    );
    expect(failure).toEqual({
      row: "remove",
      dialog: { title: ERROR_DIALOGS.startTraining.title, html: "Add funds &lt;first&gt;." },
    });
  });

  it("fails the row with the reason on refused inputs, with the feature's failure dialog when it has one", () => {
    const refused = new ApiError(422, "unprocessable-input", "No face found.");
    expect(runFailureOf(refused, backgroundRemovalFeature)).toEqual({
      row: "error",
      reason: "No face found.",
      dialog: null,
    });
    expect(runFailureOf(refused, objectRemovalFeature)).toEqual({
      row: "error",
      reason: "No face found.",
      dialog: { title: ERROR_DIALOGS.removeObject.title, html: "No face found." },
    });
    expect(runFailureOf(new ApiError(400, "invalid-input", "Bad width."), backgroundRemovalFeature)).toEqual({
      row: "error",
      reason: "Bad width.",
      dialog: null,
    });
  });

  it("drops the row of a refused upload and titles the dialog by file kind", () => {
    expect(
      runFailureOf(new ApiError(413, "payload-too-large", "Too big."), backgroundRemovalFeature),
    ).toEqual({ row: "remove", dialog: { title: IMAGE_SIZE_LIMIT_TITLE, html: "Too big." } });
    expect(
      runFailureOf(new ApiError(415, "unsupported-file-type", "Not audio."), transcriptionFeature).dialog
        ?.title,
    ).toBe("File Type Not Accepted");
    expect(
      runFailureOf(new ApiError(415, "unreadable-file", "Broken."), transcriptionFeature).dialog?.title,
    ).toBe(AUDIO_UNREADABLE.title);
    expect(
      runFailureOf(new ApiError(413, "audio-too-long", "Too long."), transcriptionFeature).dialog?.title,
    ).toBe(AUDIO_TOO_LONG.title);
    expect(
      runFailureOf(new ApiError(415, "unsupported-media-type", "Odd."), backgroundRemovalFeature).dialog
        ?.title,
    ).toBe("Invalid Request");
  });

  it("fails the row on provider failures, timeouts and transport errors", () => {
    const timeout = new ApiError(0, "timeout", "The request timed out. Please try again.");
    expect(runFailureOf(timeout, backgroundRemovalFeature)).toEqual({
      row: "error",
      reason: timeout.message,
      dialog: null,
    });
    expect(runFailureOf(new ApiError(502, "feature-failed", "Model crashed."), objectRemovalFeature)).toEqual(
      {
        row: "error",
        reason: "Model crashed.",
        dialog: { title: ERROR_DIALOGS.removeObject.title, html: ERROR_DIALOGS.removeObject.message },
      },
    );
    expect(runFailureOf(new Error("bug"), backgroundRemovalFeature)).toEqual({
      row: "error",
      reason: undefined,
      dialog: null,
    });
  });
});
