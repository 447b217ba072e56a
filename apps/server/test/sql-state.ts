/**
 * The SQLSTATE a statement failed with (`23505` unique, `23514` check…), or undefined when it
 * succeeded: for tests that the database itself refuses a row. Drivers and Drizzle wrap it in causes.
 */
export async function sqlStateOf(statement: PromiseLike<unknown>): Promise<string | undefined> {
  try {
    await statement;
  } catch (error) {
    for (let current: unknown = error; current instanceof Error; current = current.cause) {
      const code = (current as { code?: unknown }).code;
      if (typeof code === "string") return code;
    }
    throw error;
  }
  return undefined;
}
