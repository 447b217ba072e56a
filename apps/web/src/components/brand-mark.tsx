import { Group, Text } from "@mantine/core";
import { useId } from "react";
import { productName } from "../lib/env";

const SIZES = { sm: { icon: 26, text: 18 }, md: { icon: 30, text: 20 }, lg: { icon: 40, text: 26 } } as const;

/** The Prism logo: a prism triangle on the brand gradient, and the word mark. */
export function BrandMark({
  size = "md",
  withText = true,
}: {
  size?: keyof typeof SIZES;
  withText?: boolean;
}) {
  const { icon, text } = SIZES[size];
  // One id per mark: the top bar of a phone shows a second mark, and a gradient referenced by a shared
  // id would be taken from whichever copy is hidden.
  const gradientId = useId();
  return (
    <Group gap={10} wrap="nowrap" aria-label={productName()}>
      <svg width={icon} height={icon} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#7c3aed" />
            <stop offset="1" stopColor="#2563eb" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
        <path d="M16 6 26 24H6Z" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinejoin="round" />
        <path d="M16 6v18" stroke="#fff" strokeWidth="1.6" strokeOpacity=".7" />
      </svg>
      {withText ? (
        <Text fz={text} fw={700} lh={1} style={{ letterSpacing: "-0.02em" }}>
          {productName()}{" "}
          <Text span c="dimmed" fw={500} fz={text * 0.72} ml={2}>
            Console
          </Text>
        </Text>
      ) : null}
    </Group>
  );
}
