import { Box, Center, Paper, Stack } from "@mantine/core";
import type { ReactNode } from "react";
import { BrandMark } from "../../../components/brand-mark";

/** The centred card of the signed-out screens. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <Box
      mih="100vh"
      style={{
        background:
          "radial-gradient(1200px 600px at 10% -10%, var(--mantine-color-prism-0), transparent 60%), radial-gradient(900px 500px at 110% 110%, var(--mantine-color-blue-0), transparent 60%), var(--prism-surface)",
      }}
    >
      <Center mih="100vh" p="md">
        <Stack gap="xl" w="100%" maw={420} align="stretch">
          <Center>
            <BrandMark size="lg" />
          </Center>
          <Paper withBorder shadow="sm" p={32}>
            {children}
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
