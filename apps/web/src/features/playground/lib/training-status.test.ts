import { describe, expect, it } from "vitest";
import { isTrainingInProgress, trainingRowStatus } from "./training-status";

describe("trainingRowStatus", () => {
  it("is sending while the local call runs, pending once the request is queued", () => {
    expect(trainingRowStatus({ status: "generating", response_data: {}, local: true })).toBe("sending");
    expect(trainingRowStatus({ status: "generating", response_data: {} })).toBe("pending");
  });

  it("follows the identity status the model server reported", () => {
    const done = (status?: string) => ({
      status: "done" as const,
      response_data: { body: { identityId: "identity-1", ...(status ? { status } : {}) } },
    });
    expect(trainingRowStatus(done("training"))).toBe("training");
    expect(trainingRowStatus(done("ready"))).toBe("ready");
    expect(trainingRowStatus(done("failed"))).toBe("failed");
    expect(trainingRowStatus(done())).toBe("pending");
  });

  it("is failed when the training could not be started", () => {
    expect(trainingRowStatus({ status: "error", response_data: {} })).toBe("failed");
    expect(trainingRowStatus({ status: "error", response_data: {}, local: true })).toBe("failed");
  });

  it("keeps refreshing only pending and training rows", () => {
    expect(isTrainingInProgress("pending")).toBe(true);
    expect(isTrainingInProgress("training")).toBe(true);
    expect(isTrainingInProgress("sending")).toBe(false);
    expect(isTrainingInProgress("ready")).toBe(false);
    expect(isTrainingInProgress("failed")).toBe(false);
  });
});
