import type { UserInfo } from "@prism/contract";
import { describe, expect, it, vi } from "vitest";
import { pollForBalanceChange } from "./poll-balance";

function userWithBalance(balance: number): UserInfo {
  return {
    id: "u1",
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    creationDate: "2026-01-01T00:00:00Z",
    organizations: [{ id: "o1", balance } as UserInfo["organizations"][number]],
  };
}

describe("pollForBalanceChange", () => {
  it("stops at the first read that shows a different balance", async () => {
    const readUser = vi
      .fn<() => Promise<UserInfo>>()
      .mockResolvedValueOnce(userWithBalance(0))
      .mockRejectedValueOnce(new Error("network"))
      .mockResolvedValueOnce(userWithBalance(20));
    const sleep = vi.fn(async () => {});
    const user = await pollForBalanceChange({ organizationId: "o1", previousBalance: 0, readUser, sleep });
    expect(user?.organizations[0]?.balance).toBe(20);
    expect(readUser).toHaveBeenCalledTimes(3);
    expect(sleep.mock.calls).toEqual([[2_000], [2_000]]);
  });

  it("gives up after 5 tries, 2 s apart", async () => {
    const readUser = vi.fn(async () => userWithBalance(0));
    const sleep = vi.fn(async () => {});
    await expect(
      pollForBalanceChange({ organizationId: "o1", previousBalance: 0, readUser, sleep }),
    ).resolves.toBeNull();
    expect(readUser).toHaveBeenCalledTimes(5);
    expect(sleep).toHaveBeenCalledTimes(4);
  });
});
