import { Anchor, Button, Checkbox, PasswordInput, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { Link } from "react-router";
import { PasswordFeedback } from "../../../components/password-feedback";
import { productName } from "../../../lib/env";
import { PATHS } from "../../../lib/paths";
import { type SignUpValues, validateSignUp } from "../lib/validation";
import { EmailInput, FormError, FormHeader, ModeLink } from "./auth-form-parts";

export function SignUpForm({
  email,
  onEmailChange,
  loading,
  error,
  onSubmit,
  onBack,
}: {
  email: string;
  onEmailChange: (email: string) => void;
  loading: boolean;
  error: string | null;
  onSubmit: (values: { firstName: string; lastName: string; email: string; password: string }) => void;
  onBack: () => void;
}) {
  // The e-mail stays with the login screen (it follows the user from step to step), so the form checks
  // it from the prop. Errors show on submit; editing a field clears its own.
  const form = useForm<Omit<SignUpValues, "email">>({
    initialValues: { firstName: "", lastName: "", password: "", confirmPassword: "", acceptTerms: false },
    validate: (values) => validateSignUp({ ...values, email }).errors,
  });
  const { values, errors } = form;

  const submit = form.onSubmit((submitted) => {
    // A failing password rule blocks without a message of its own: the live feedback names it.
    if (validateSignUp({ ...submitted, email }).blocked) return;
    onSubmit({
      firstName: submitted.firstName.trim(),
      lastName: submitted.lastName.trim(),
      email: email.trim(),
      password: submitted.password,
    });
  });

  return (
    <form
      onSubmit={(event) => (loading ? event.preventDefault() : submit(event))}
      noValidate
      aria-label="Sign up"
    >
      <Stack gap="md">
        <FormHeader
          title="Create your account"
          subtitle={`Start building with the ${productName()} image and speech APIs.`}
        />
        <FormError message={error} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
          <TextInput
            label="First Name"
            autoComplete="given-name"
            {...form.getInputProps("firstName")}
            data-autofocus
          />
          <TextInput label="Last Name" autoComplete="family-name" {...form.getInputProps("lastName")} />
        </SimpleGrid>
        <EmailInput
          autoComplete="email"
          leftSection={null}
          value={email}
          onValueChange={(value) => {
            onEmailChange(value);
            form.clearFieldError("email");
          }}
          error={errors.email}
        />
        <PasswordInput label="Password" autoComplete="new-password" {...form.getInputProps("password")} />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          {...form.getInputProps("confirmPassword")}
        />
        <PasswordFeedback password={values.password} confirmation={values.confirmPassword} />
        <Checkbox
          {...form.getInputProps("acceptTerms", { type: "checkbox" })}
          label={
            <>
              I accept the{" "}
              <Anchor component={Link} to={PATHS.terms} target="_blank" rel="noopener" inherit>
                terms and conditions
              </Anchor>
            </>
          }
        />
        <Button type="submit" fullWidth size="md" loading={loading}>
          Sign Up
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          Already have an account?{" "}
          <ModeLink onClick={onBack} disabled={loading}>
            Back to Sign In
          </ModeLink>
        </Text>
      </Stack>
    </form>
  );
}
