import { Anchor, Box, Container, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { BrandMark } from "../../../components/brand-mark";
import { documentTitle, productName } from "../../../lib/env";
import { PATHS } from "../../../lib/paths";

/** The terms, naming the product as the deployment does (read when the page renders, after the config). */
const sections = (product: string): { title: string; body: string[] }[] => [
  {
    title: "1. The service",
    body: [
      `${product} provides image and speech processing through a web console and an HTTP API. Access requires an account and, for paid features, a prepaid balance held by an organization.`,
    ],
  },
  {
    title: "2. Your account",
    body: [
      "You are responsible for the activity of your account and of the API keys created in your projects. Keep your password and keys secret and revoke a key as soon as you suspect it has leaked.",
      "You must provide accurate information when signing up and keep your email address current, as it is used to verify your account and recover your password.",
    ],
  },
  {
    title: "3. Payments and balance",
    body: [
      "Each request to a paid feature is charged to the balance of the organization that owns the project. Prices are shown in the console before a request is made. Recharges are final once the balance has been used.",
    ],
  },
  {
    title: "4. Acceptable use",
    body: [
      "Do not use the service to process content you have no right to use, to infringe the rights of others, to generate unlawful material, or to disrupt or probe the service's infrastructure.",
    ],
  },
  {
    title: "5. Your content",
    body: [
      "You keep every right to the files you upload and the results you obtain. We process them only to provide the service and keep them in your project's history until you delete them.",
    ],
  },
  {
    title: "6. Availability and changes",
    body: [
      "We aim for a reliable service but do not guarantee uninterrupted availability. We may change these terms; the version shown here applies from its publication, and continued use means acceptance.",
    ],
  },
];

/** The public Terms of Service page the sign-up checkbox links to. */
export function TermsPage() {
  const product = productName();
  return (
    <Box mih="100vh" py={48} px="md">
      <title>{documentTitle("Terms of Service")}</title>
      <Container size={760}>
        <Stack gap="xl">
          <Group justify="space-between">
            <BrandMark />
            <Anchor component={Link} to={PATHS.login} size="sm" fw={500}>
              Back to Sign In
            </Anchor>
          </Group>
          <Paper withBorder p={{ base: "lg", sm: 40 }}>
            <Stack gap="lg">
              <Stack gap={4}>
                <Title order={1} fz={30}>
                  Terms of Service
                </Title>
                <Text c="dimmed" size="sm">
                  These terms govern your use of the {product} console and API.
                </Text>
              </Stack>
              {sections(product).map((section) => (
                <Stack gap={6} key={section.title}>
                  <Title order={2} fz={18}>
                    {section.title}
                  </Title>
                  {section.body.length === 1 ? (
                    <Text size="sm" lh={1.65}>
                      {section.body[0]}
                    </Text>
                  ) : (
                    <List size="sm" spacing={6} lh={1.65}>
                      {section.body.map((paragraph) => (
                        <List.Item key={paragraph}>{paragraph}</List.Item>
                      ))}
                    </List>
                  )}
                </Stack>
              ))}
            </Stack>
          </Paper>
        </Stack>
      </Container>
    </Box>
  );
}
