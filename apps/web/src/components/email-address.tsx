import { Text, type TextProps } from "@mantine/core";
import { Fragment } from "react";

/**
 * An email address that wraps where a reader expects, after the "@" or before a dot, and only when a
 * part alone is wider than its box anywhere else ("grace.hopper.the.admiral" / "@example.com", never
 * "…15701" / "6@example.com").
 */
export function EmailAddress({ email, ...props }: { email: string } & TextProps) {
  const parts = email.split(/(?=\.)|(?<=@)/);
  return (
    <Text size="sm" {...props} style={{ overflowWrap: "anywhere" }}>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, in a fixed order.
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </Text>
  );
}
