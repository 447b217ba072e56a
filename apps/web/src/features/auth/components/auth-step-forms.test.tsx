import { MantineProvider } from "@mantine/core";
import {
  EMAIL_ADDRESS_REQUIRED,
  FIRST_NAME_REQUIRED,
  FORGOT_PASSWORD_EMAIL_REQUIRED,
  INVALID_EMAIL_ADDRESS,
  PASSWORD_REQUIRED,
  TWO_FACTOR_CODE_REQUIRED,
  VERIFICATION_CODE_REQUIRED,
} from "@prism/contract";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ReactNode, useState } from "react";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { ChangePasswordForm } from "./change-password-form";
import { ForgotPasswordForm } from "./forgot-password-form";
import { SignInForm } from "./sign-in-form";
import { SignUpForm } from "./sign-up-form";
import { TwoFactorForm } from "./two-factor-form";
import { VerificationCodeForm } from "./verification-code-form";

// The login screen's steps on their own: when a field's message shows and what clears it, which the
// whole-screen tests (login-page.test.tsx) do not follow.

const renderStep = (step: ReactNode) =>
  render(
    <MantineProvider>
      <MemoryRouter>{step}</MemoryRouter>
    </MantineProvider>,
  );

/** The login screen holds the e-mail across steps; this stands in for it. */
function WithEmail({
  children,
}: {
  children: (email: string, setEmail: (email: string) => void) => ReactNode;
}) {
  const [email, setEmail] = useState("");
  return children(email, setEmail);
}

const noop = () => undefined;

describe("sign-in step", () => {
  const renderSignIn = (onSubmit = vi.fn(), busy = false) =>
    renderStep(
      <WithEmail>
        {(email, setEmail) => (
          <SignInForm
            email={email}
            onEmailChange={setEmail}
            rememberMe={false}
            onRememberMeChange={noop}
            loading={busy}
            busy={busy}
            error={null}
            providers={null}
            onSubmit={onSubmit}
            onSignUp={noop}
            onRecoverPassword={noop}
          />
        )}
      </WithEmail>,
    );

  it("names the missing e-mail and password on submit only, and editing one clears only its own", async () => {
    const onSubmit = vi.fn();
    renderSignIn(onSubmit);
    const user = userEvent.setup();
    expect(screen.queryByText(EMAIL_ADDRESS_REQUIRED)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(screen.getByText(EMAIL_ADDRESS_REQUIRED)).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeInTheDocument();

    await user.type(screen.getByLabelText("Password"), "s");
    expect(screen.queryByText(PASSWORD_REQUIRED)).not.toBeInTheDocument();
    expect(screen.getByText(EMAIL_ADDRESS_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), "ada");
    expect(screen.queryByText(EMAIL_ADDRESS_REQUIRED)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(screen.getByText(INVALID_EMAIL_ADDRESS)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends the trimmed e-mail and the password as typed", async () => {
    const onSubmit = vi.fn();
    renderSignIn(onSubmit);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Email"), " ada@example.com ");
    await user.type(screen.getByLabelText("Password"), " secret ");
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(onSubmit).toHaveBeenCalledWith({ email: "ada@example.com", password: " secret " });
  });

  it("ignores a submit while a request of the screen runs, without checking the fields", async () => {
    const onSubmit = vi.fn();
    renderSignIn(onSubmit, true);
    await userEvent.setup().type(screen.getByLabelText("Password"), "{Enter}");
    expect(screen.queryByText(EMAIL_ADDRESS_REQUIRED)).not.toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe("sign-up step", () => {
  const renderSignUp = (onSubmit = vi.fn(), loading = false) =>
    renderStep(
      <WithEmail>
        {(email, setEmail) => (
          <SignUpForm
            email={email}
            onEmailChange={setEmail}
            loading={loading}
            error={null}
            onSubmit={onSubmit}
            onBack={noop}
          />
        )}
      </WithEmail>,
    );

  it("names missing fields on submit only, and editing a field clears only its own message", async () => {
    const onSubmit = vi.fn();
    renderSignUp(onSubmit);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("First Name"), " ");
    expect(screen.queryByText(FIRST_NAME_REQUIRED)).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(screen.getByText(FIRST_NAME_REQUIRED)).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeInTheDocument();

    await user.type(screen.getByLabelText("Confirm Password"), "x");
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), "a");
    expect(screen.queryByText(EMAIL_ADDRESS_REQUIRED)).not.toBeInTheDocument();
    expect(screen.getByText(FIRST_NAME_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByLabelText("First Name"), "A");
    expect(screen.queryByText(FIRST_NAME_REQUIRED)).not.toBeInTheDocument();
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Password"), "x");
    expect(screen.queryByText(PASSWORD_REQUIRED)).not.toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends the trimmed details", async () => {
    const onSubmit = vi.fn();
    renderSignUp(onSubmit);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("First Name"), " Ada ");
    await user.type(screen.getByLabelText("Last Name"), " Lovelace ");
    await user.type(screen.getByLabelText("Email"), " ada@example.com ");
    await user.type(screen.getByLabelText("Password"), "Str0ng!pass");
    await user.type(screen.getByLabelText("Confirm Password"), "Str0ng!pass");
    await user.click(screen.getByRole("checkbox", { name: /terms and conditions/ }));
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(onSubmit).toHaveBeenCalledWith({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      password: "Str0ng!pass",
    });
  });

  it("ignores a submit while its request runs, without checking the fields", async () => {
    renderSignUp(vi.fn(), true);
    await userEvent.setup().type(screen.getByLabelText("First Name"), "{Enter}");
    expect(screen.queryByText(FIRST_NAME_REQUIRED)).not.toBeInTheDocument();
  });
});

describe("password recovery step", () => {
  const renderForgot = (onSubmit = vi.fn(), loading = false) =>
    renderStep(
      <WithEmail>
        {(email, setEmail) => (
          <ForgotPasswordForm
            email={email}
            onEmailChange={setEmail}
            loading={loading}
            error={null}
            onSubmit={onSubmit}
            onBack={noop}
          />
        )}
      </WithEmail>,
    );

  it("asks for the e-mail on submit, clears the message on typing and sends it trimmed", async () => {
    const onSubmit = vi.fn();
    renderForgot(onSubmit);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(screen.getByText(FORGOT_PASSWORD_EMAIL_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), " ada@example.com ");
    expect(screen.queryByText(FORGOT_PASSWORD_EMAIL_REQUIRED)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(onSubmit).toHaveBeenCalledWith("ada@example.com");
  });

  it("ignores a submit while its request runs", async () => {
    renderForgot(vi.fn(), true);
    await userEvent.setup().type(screen.getByLabelText("Email"), "{Enter}");
    expect(screen.queryByText(FORGOT_PASSWORD_EMAIL_REQUIRED)).not.toBeInTheDocument();
  });
});

describe("new password step", () => {
  it("clears each message with its own field, and a weak password blocks without a message", async () => {
    const onSubmit = vi.fn();
    renderStep(
      <ChangePasswordForm
        email="ada@example.com"
        loading={false}
        error={null}
        onSubmit={onSubmit}
        onBack={noop}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(screen.getByText(VERIFICATION_CODE_REQUIRED)).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeInTheDocument();

    await user.type(screen.getByLabelText("Confirm Password"), "x");
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Verification Code"), " 123456 ");
    expect(screen.queryByText(VERIFICATION_CODE_REQUIRED)).not.toBeInTheDocument();
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByLabelText("New Password"), "weak");
    expect(screen.queryByText(PASSWORD_REQUIRED)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText("New Password"));
    await user.clear(screen.getByLabelText("Confirm Password"));
    await user.type(screen.getByLabelText("New Password"), "Str0ng!pass");
    await user.type(screen.getByLabelText("Confirm Password"), "Str0ng!pass");
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(onSubmit).toHaveBeenCalledWith({ resetCode: "123456", password: "Str0ng!pass" });
  });
});

describe("code steps", () => {
  it("verification: asks for the code on submit, clears the message on typing, sends it trimmed", async () => {
    const onSubmit = vi.fn();
    renderStep(
      <VerificationCodeForm
        email="ada@example.com"
        loading={false}
        error={null}
        onSubmit={onSubmit}
        onBack={noop}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(screen.getByText(VERIFICATION_CODE_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Verification Code"), " 123456 ");
    expect(screen.queryByText(VERIFICATION_CODE_REQUIRED)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(onSubmit).toHaveBeenCalledWith("123456");
  });

  it("two-factor: asks for the code on submit, clears the message on typing, sends it trimmed", async () => {
    const onSubmit = vi.fn();
    renderStep(<TwoFactorForm loading={false} error={null} onSubmit={onSubmit} onBack={noop} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(screen.getByText(TWO_FACTOR_CODE_REQUIRED)).toBeInTheDocument();
    await user.type(screen.getByRole("textbox"), " 654321 ");
    expect(screen.queryByText(TWO_FACTOR_CODE_REQUIRED)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(onSubmit).toHaveBeenCalledWith("654321");
  });

  it("two-factor: ignores a submit while its request runs", async () => {
    renderStep(<TwoFactorForm loading error={null} onSubmit={vi.fn()} onBack={noop} />);
    await userEvent.setup().type(screen.getByRole("textbox"), "{Enter}");
    expect(screen.queryByText(TWO_FACTOR_CODE_REQUIRED)).not.toBeInTheDocument();
  });
});
