import { Anchor, Button, Checkbox, PasswordInput, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { PasswordFeedback } from "../../../components/password-feedback";
import { PATHS } from "../../../lib/paths";
import { type FieldErrors, type SignUpValues, validateSignUp } from "../lib/validation";
import { EmailInput, FormError, FormHeader, ModeLink } from "./auth-form-parts";

type SignUpField = "firstName" | "lastName" | "email" | "password" | "acceptTerms";

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
  const [values, setValues] = useState<Omit<SignUpValues, "email">>({
    firstName: "",
    lastName: "",
    password: "",
    confirmPassword: "",
    acceptTerms: false,
  });
  const [errors, setErrors] = useState<FieldErrors<SignUpField>>({});

  const change = <K extends keyof typeof values>(key: K, value: (typeof values)[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (key !== "confirmPassword") setErrors((current) => ({ ...current, [key]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    const { errors: found, blocked } = validateSignUp({ ...values, email });
    setErrors(found);
    if (blocked) return;
    onSubmit({
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email: email.trim(),
      password: values.password,
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Sign up">
      <Stack gap="md">
        <FormHeader
          title="Create your account"
          subtitle="Start building with the Prism image and speech APIs."
        />
        <FormError message={error} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
          <TextInput
            label="First Name"
            autoComplete="given-name"
            value={values.firstName}
            onChange={(event) => change("firstName", event.currentTarget.value)}
            error={errors.firstName}
            data-autofocus
          />
          <TextInput
            label="Last Name"
            autoComplete="family-name"
            value={values.lastName}
            onChange={(event) => change("lastName", event.currentTarget.value)}
            error={errors.lastName}
          />
        </SimpleGrid>
        <EmailInput
          autoComplete="email"
          leftSection={null}
          value={email}
          onValueChange={(value) => {
            onEmailChange(value);
            setErrors((current) => ({ ...current, email: undefined }));
          }}
          error={errors.email}
        />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          value={values.password}
          onChange={(event) => change("password", event.currentTarget.value)}
          error={errors.password}
        />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(event) => change("confirmPassword", event.currentTarget.value)}
        />
        <PasswordFeedback password={values.password} confirmation={values.confirmPassword} />
        <Checkbox
          checked={values.acceptTerms}
          onChange={(event) => change("acceptTerms", event.currentTarget.checked)}
          error={errors.acceptTerms}
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
